// Delivery to a real Postfix as the recipient's MX (helpers/postfix-mx.ts), on both databases: what
// txmail makes of a real MTA's greylisting, unknown-user and policy replies, as the send API, the
// message's events, the suppression list and Postfix's own log see it. Greylisting is not throttling:
// the greylisted message alone waits at least 5 minutes, the destination keeps its pace, and the
// session ends with QUIT (ARCHITECTURE.md, "Greylisting is not throttling").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyReply } from '../src/delivery/classify-reply.js';
import { databaseKinds } from './helpers/databases.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { PostfixMx, postfixTestsRun } from './helpers/postfix-mx.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';

interface Detail {
  status: string;
  attempts: number;
  category: string | null;
  next_attempt_at: string | null;
  events: { type: string; data: Record<string, unknown> }[];
  delivery_attempts: {
    started_at: string;
    duration_ms: number;
    outcome: string;
    smtp_code: number | null;
    enhanced_code: string;
    reply: string;
  }[];
}

const MIN = 60_000;
const DOMAIN = 'grey.example';
const GREYLIST = '450 4.7.1 Greylisted, please try again later';

const runs = postfixTestsRun();

describe.skipIf(!runs).each(databaseKinds)('delivery to a real Postfix on $name', (kind) => {
  const dnsServer = new TestDnsServer();
  const postfix = new PostfixMx({
    domain: DOMAIN,
    mailboxes: ['jane', 'john', 'greylisted', 'blocked', 'disabled'],
    access: {
      greylisted: GREYLIST,
      blocked: 'REJECT Access denied',
      disabled: '550 5.2.1 The email account that you tried to reach is disabled',
    },
  });

  beforeAll(async () => {
    await dnsServer.start();
    await postfix.start();
    dnsServer.add(DOMAIN, 'MX', { preference: 10, exchange: `mx.${DOMAIN}` });
    dnsServer.add(`mx.${DOMAIN}`, 'A', postfix.host);
  }, 30_000);
  afterAll(async () => {
    await postfix.stop();
    await dnsServer.stop();
  });

  /** A txmail instance delivering to the Postfix, with one tenant. */
  async function txmail(): Promise<{ env: TestEnv; tenant: Tenant }> {
    const env = await startTestEnv(kind, {
      env: {
        TXMAIL_DNS_SERVERS: dnsServer.address,
        TXMAIL_MX_PORT: String(postfix.port),
        TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true',
      },
    });
    const tenant = await createTenant(env.services, { domain: 'acme.example' });
    // A poll interval far beyond every wait below: the worker runs because a commit wakes it.
    await env.services.startWorker({ pollMs: 10 * MIN });
    return { env, tenant };
  }

  async function send(env: TestEnv, tenant: Tenant, to: string, from = validSend.from): Promise<string> {
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/email/send',
      headers: { 'x-api-key': tenant.apiKey },
      payload: { ...validSend, from, to },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { id: string }).id;
  }

  async function detail(env: TestEnv, tenant: Tenant, id: string): Promise<Detail> {
    const res = await env.app.inject({
      method: 'GET',
      url: `/api/emails/${id}`,
      headers: { 'x-api-key': tenant.apiKey },
    });
    return res.json() as Detail;
  }

  const settled = (env: TestEnv, tenant: Tenant, id: string, status: string) =>
    until(`message ${id} to be ${status}`, async () => {
      const d = await detail(env, tenant, id);
      return d.status === status ? d : undefined;
    });

  async function suppressed(env: TestEnv, tenant: Tenant, address: string): Promise<unknown[]> {
    const res = await env.app.inject({
      method: 'GET',
      url: `/api/suppressions?address=${encodeURIComponent(address)}`,
      headers: { 'x-api-key': tenant.apiKey },
    });
    expect(res.statusCode).toBe(200);
    return (res.json() as { data: unknown[] }).data;
  }

  it("defers a greylisted recipient past the greylist's delay, delivers the next message at once, and ends the session with QUIT", async () => {
    const { env, tenant } = await txmail();
    let closed = false;
    try {
      const grey = await send(env, tenant, `greylisted@${DOMAIN}`);
      const g = await settled(env, tenant, grey, 'deferred');

      // One attempt, with Postfix's own reply to the access map's entry.
      expect(g.attempts).toBe(1);
      expect(g.delivery_attempts).toHaveLength(1);
      const attempt = g.delivery_attempts[0]!;
      expect(attempt).toMatchObject({ outcome: 'deferred', smtp_code: 450, enhanced_code: '4.7.1' });
      expect(attempt.reply).toBe(
        `450 4.7.1 <greylisted@${DOMAIN}>: Recipient address rejected: Greylisted, please try again later`,
      );
      // The category is reply intelligence's, the same as a report with these words would get.
      const verdict = classifyReply(450, attempt.reply);
      expect(verdict.greylisted).toBe(true);
      // Greylisting is a policy of the receiving server (docs/API.md, Bounce categories), never a
      // rate limit.
      expect(verdict.category).toBe('policy_rejected');
      const delayed = g.events.find((e) => e.type === 'email.delivery_delayed');
      expect(delayed?.data).toMatchObject({
        category: verdict.category,
        greylisted: true,
        smtp_code: 450,
        enhanced_code: '4.7.1',
      });
      expect(g.category).toBe(verdict.category);

      // The first retry: not before 5 minutes after the attempt, jitter only upward (at most +15 %).
      const started = Date.parse(attempt.started_at);
      const next = Date.parse(g.next_attempt_at!);
      expect(next - started).toBeGreaterThanOrEqual(5 * MIN);
      expect(next - (started + attempt.duration_ms)).toBeLessThanOrEqual(5.75 * MIN + 1000);

      // The destination is neither paused nor slowed: the next message to another recipient on the
      // same MX goes out on its first attempt, now (a throttle would have rescheduled it a minute on
      // without an attempt, as delivery.test.ts shows for a 421).
      const other = await send(env, tenant, `jane@${DOMAIN}`);
      const o = await settled(env, tenant, other, 'delivered');
      expect(o.attempts).toBe(1);
      expect(o.delivery_attempts[0]).toMatchObject({ outcome: 'delivered', smtp_code: 250 });
      await until('Postfix to store the message in the maildir', async () =>
        postfix.delivered('jane').length === 1 ? true : undefined,
      );
      expect(postfix.delivered('jane')[0]!.toString('latin1')).toMatch(/^Subject: /m);

      // The greylisted message stays as it was: deferred, no second attempt.
      expect(await detail(env, tenant, grey)).toMatchObject({ status: 'deferred', attempts: 1 });

      // txmail's sessions end with QUIT, never dropped: Postfix counts the commands of each session
      // when it ends (`quit=1`), and logs "lost connection" for one cut short. The greylisted session
      // was kept (RSET) and ends when the worker closes its connections.
      await env.close();
      closed = true;
      const sessions = await postfix.waitForLog(
        "the end of txmail's session with the greylisted recipient",
        /disconnect from .* rcpt=\d+\/\d+.*rset=/,
      );
      for (const line of sessions) expect(line).toMatch(/ quit=1 /);
      expect(postfix.log()).not.toMatch(/lost connection/);
      expect(postfix.log()).toMatch(
        /NOQUEUE: reject: RCPT from \S+: 450 4\.7\.1 <greylisted@grey\.example>: Recipient address rejected: Greylisted/,
      );
    } finally {
      if (!closed) await env.close();
    }
  }, 60_000);

  it('bounces an unknown user as unknown_recipient and suppresses the address', async () => {
    const { env, tenant } = await txmail();
    try {
      const id = await send(env, tenant, `unknown@${DOMAIN}`);
      const d = await settled(env, tenant, id, 'bounced');
      expect(d.delivery_attempts[0]).toMatchObject({ smtp_code: 550, enhanced_code: '5.1.1' });
      expect(d.delivery_attempts[0]!.reply).toMatch(/User unknown in virtual mailbox table/);
      expect(d.events.find((e) => e.type === 'email.bounced')?.data).toMatchObject({
        category: 'unknown_recipient',
        bounce_type: 'permanent',
      });
      expect(d.category).toBe('unknown_recipient');
      expect(await suppressed(env, tenant, `unknown@${DOMAIN}`)).toEqual([
        expect.objectContaining({ address: `unknown@${DOMAIN}`, origin: 'bounce', enhanced_code: '5.1.1' }),
      ]);
      // The next send to the address is refused at once.
      const again = await env.app.inject({
        method: 'POST',
        url: '/api/email/send',
        headers: { 'x-api-key': tenant.apiKey },
        payload: { ...validSend, to: `unknown@${DOMAIN}` },
      });
      expect(again.statusCode).not.toBe(200);
    } finally {
      await env.close();
    }
  });

  it('bounces a 5.7.1 policy refusal as policy_rejected and does not suppress the address', async () => {
    const { env, tenant } = await txmail();
    try {
      const id = await send(env, tenant, `blocked@${DOMAIN}`);
      const d = await settled(env, tenant, id, 'bounced');
      // Postfix's access map REJECT: access_map_reject_code 554 with 5.7.1.
      expect(d.delivery_attempts[0]).toMatchObject({ smtp_code: 554, enhanced_code: '5.7.1' });
      expect(d.delivery_attempts[0]!.reply).toBe(
        `554 5.7.1 <blocked@${DOMAIN}>: Recipient address rejected: Access denied`,
      );
      expect(d.events.find((e) => e.type === 'email.bounced')?.data).toMatchObject({
        category: 'policy_rejected',
      });
      expect(d.category).toBe('policy_rejected');
      expect(await suppressed(env, tenant, `blocked@${DOMAIN}`)).toEqual([]);
    } finally {
      await env.close();
    }
  });

  it('suppresses a disabled mailbox the second time it is refused, not the first', async () => {
    const { env, tenant } = await txmail();
    try {
      const address = `disabled@${DOMAIN}`;
      const first = await settled(env, tenant, await send(env, tenant, address), 'bounced');
      expect(first.delivery_attempts[0]).toMatchObject({ smtp_code: 550, enhanced_code: '5.2.1' });
      expect(first.category).toBe('mailbox_disabled');
      expect(await suppressed(env, tenant, address)).toEqual([]);

      // Mail of another account to the address says nothing about this account's history.
      const other = await createTenant(env.services, { domain: 'other.example' });
      await settled(env, other, await send(env, other, address, 'noreply@other.example'), 'bounced');
      expect(await suppressed(env, other, address)).toEqual([]);

      const second = await settled(env, tenant, await send(env, tenant, address), 'bounced');
      expect(second.category).toBe('mailbox_disabled');
      expect(await suppressed(env, tenant, address)).toEqual([
        expect.objectContaining({ address, origin: 'bounce', enhanced_code: '5.2.1' }),
      ]);
    } finally {
      await env.close();
    }
  });
});
