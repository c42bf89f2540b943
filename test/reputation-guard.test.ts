// The reputation guardrails end to end on SQLite and PostgreSQL (issue "Done when"): with
// TXMAIL_REPUTATION=min_messages=20 a tenant whose mail, delivered by the real worker to a real SMTP
// server, bounces (550 5.1.1) for more than 10 % of its recipients is paused by itself; its next send is
// 403 account_paused with the rate; its test send still works; another tenant keeps sending; the
// account.paused event reaches a real webhook receiver, signed; the email about it is queued and
// delivered (the service's own mail is not held); the paused tenant's queued mail is held without an
// attempt; and after `txmail account resume` (the real CLI) the tenant sends again, from a fresh window,
// and its held mail goes.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.js';
import type { InboundReceiver } from '../src/inbound/receiver.js';
import { fixture } from './helpers/inbound-fixtures.js';
import { smtpSend } from './helpers/smtp-client.js';
import { databaseKinds } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { runCommand } from './helpers/command.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

const TEST_DOMAIN = 'test.txmail.example';
const ENV = {
  TXMAIL_REPUTATION: 'min_messages=20',
  TXMAIL_INBOUND_HOST: '127.0.0.1',
  TXMAIL_INBOUND_CONNECTIONS_PER_MINUTE: '0',
  TXMAIL_TEST_DOMAIN: TEST_DOMAIN,
};

describe.each(databaseKinds)('reputation guardrails end to end on $name', (kind) => {
  let env: TestEnv;
  const mail = new MailFixture({
    domains: ['dest.example', 'customer.example'],
    exchange: 'mx.dest.example',
  });
  const { sink } = mail;
  const receiver = new WebhookReceiver();
  let cliEnv: Record<string, string>;
  let inbound: InboundReceiver;

  beforeAll(async () => {
    await mail.start();
    await receiver.start();
    const settings = { ...ENV, ...mail.env };
    env = await startTestEnv(kind, { env: settings });
    cliEnv = {
      ...settings,
      TXMAIL_DATABASE_URL: env.database.url,
      TXMAIL_HOSTNAME: 'mta.txmail.test',
      TXMAIL_SECRET_KEY: 'k'.repeat(64),
    };
    await env.services.startWorker({ pollMs: 200 }, { pollMs: 50 });
    inbound = await env.services.startInbound({ port: 0 });
  });
  afterAll(async () => {
    await env.close();
    await receiver.stop();
    await mail.stop();
  });

  const call = (t: Tenant, method: 'GET' | 'POST', url: string, payload?: object) =>
    env.app.inject({ method, url, headers: { 'x-api-key': t.apiKey }, ...(payload ? { payload } : {}) });
  const send = (t: Tenant, from: string, to: string) =>
    call(t, 'POST', '/api/email/send', { ...validSend, from, to });
  const sendOk = async (t: Tenant, from: string, to: string) => {
    const res = await send(t, from, to);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { id: string }).id;
  };
  const finals = async (ids: string[]) => {
    const rows = await env.statuses(ids);
    return rows.filter((r) => r.status === 'delivered' || r.status === 'bounced').length;
  };
  const allFinal = (ids: string[]) =>
    until(`${ids.length} messages final`, async () =>
      (await finals(ids)) === ids.length ? true : undefined,
    );
  const status = async (t: Tenant) => (await env.reputationState(t.accountId))?.status;

  it('pauses a tenant whose bounces pass 10 %, and only the operator resumes it', async () => {
    const a = await createTenant(env.services, { plan: 'pro', domain: 'acme.example' });
    const b = await createTenant(env.services, { plan: 'pro', domain: 'beta.example' });
    const hook = await call(a, 'POST', '/api/webhooks', {
      url: receiver.url('/a'),
      events: ['account.paused', 'account.warning'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const { secret } = hook.json() as { secret: string };

    // 17 delivered and 2 bounced: 19 final messages, below min_messages, so nothing is judged.
    const first = [
      ...Array.from({ length: 17 }, (_, i) => `ok-${i}@dest.example`),
      'bounce-1@dest.example',
      'bounce-2@dest.example',
    ];
    const firstIds = await Promise.all(first.map((to) => sendOk(a, 'noreply@acme.example', to)));
    await allFinal(firstIds);
    expect(await env.services.reputation.judge(a.accountId)).toBeUndefined();
    expect(await status(a)).toBe('healthy');

    // The 20th final message is a bounce: 3 of 20, 15 %, at or above the pause threshold (10 %).
    const last = await sendOk(a, 'noreply@acme.example', 'bounce-3@dest.example');
    await allFinal([last]);
    await until('the tenant paused by itself', async () =>
      (await status(a)) === 'paused' ? true : undefined,
    );
    await env.services.reputation.settled();

    // Its next send is refused with the rate; a test send still works; the other tenant sends.
    // At once in the process that paused it (the API key cache is dropped; another process sees it
    // within its cache's second).
    const refused = await send(a, 'noreply@acme.example', 'jane@dest.example');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toBe(
      'account_paused: sending from this account is paused: the bounce rate over the last 7 days is 15.0 % (3 of 20 messages), at or above 10.0 %; clean the list, then ask the operator of this service to resume the account',
    );
    const test = await call(a, 'POST', '/api/email/send/test', {
      ...validSend,
      from: 'noreply@acme.example',
    });
    expect(test.statusCode, test.body).toBe(200);
    const other = await sendOk(b, 'noreply@beta.example', 'someone@dest.example');
    await allFinal([other]);
    expect(sink.received.some((m) => m.to.includes('someone@dest.example'))).toBe(true);

    // GET /api/account tells the tenant.
    const account = (await call(a, 'GET', '/api/account')).json() as {
      reputation: Record<string, unknown>;
    };
    expect(account.reputation).toMatchObject({
      status: 'paused',
      bounce_rate: 0.15,
      complaint_rate: 0,
      messages: 20,
      window_days: 7,
      thresholds: { bounce_pause: 0.1, min_messages: 20 },
      domains: [{ domain: 'acme.example', bounce_rate: 0.15, complaint_rate: 0, messages: 20 }],
    });
    expect(account.reputation.reason).toMatch(/15\.0 %/);

    // The webhook event, signed like every push.
    const push = await until('the account.paused push', async () => receiver.at('/a')[0]);
    expect(new Webhook(secret).verify(push.body, push.headers)).toMatchObject({
      type: 'account.paused',
      data: {
        account_id: a.accountId,
        status: 'paused',
        bounce_rate: 0.15,
        complaint_rate: 0,
        messages: 20,
        window_days: 7,
      },
    });

    // The email, from notifications@ the test domain, is delivered: the pause holds only the tenant's mail.
    const notice = await until('the pause email delivered', async () =>
      sink.received.find((m) => m.to.includes(a.email) && /paused/.test(m.raw.toString('latin1'))),
    );
    expect(notice.raw.toString('latin1')).toMatch(new RegExp(`^From: .*<notifications@${TEST_DOMAIN}>`, 'm'));

    // Mail of the tenant's still in the queue is held: rescheduled without an attempt.
    const held = newId();
    const now = Date.now();
    await env.insertMessage({
      id: held,
      account_id: a.accountId,
      status: 'queued',
      from_name: '',
      from_email: 'noreply@acme.example',
      from_domain: 'acme.example',
      to_name: '',
      to_email: 'held@dest.example',
      to_domain: 'dest.example',
      subject: 'held',
      html: '<p>held</p>',
      created_at: now,
      updated_at: now,
      attempts: 0,
      next_attempt_at: now,
      lease_owner: null,
      lease_expires_at: null,
      category: null,
      deadline_at: null,
    });
    env.services.signals.messagesQueued.emit();
    const heldRow = await until('the held message rescheduled', async () => {
      const row = await env.message(a.accountId, held);
      return row && Number(row.next_attempt_at) >= now + 60_000 ? row : undefined;
    }).catch(async (err: Error) => {
      // What became of it instead (a timeout seen once on PostgreSQL under the full suite's load).
      const row = await env.message(a.accountId, held);
      const attempts = await env.attempts(a.accountId, held);
      const state = row && {
        status: row.status,
        attempts: row.attempts,
        next_in_ms: row.next_attempt_at === null ? null : Number(row.next_attempt_at) - Date.now(),
        leased: row.lease_owner !== null,
      };
      const atSink = sink.received.some((m) => m.to.includes('held@dest.example'));
      throw new Error(`${err.message}: ${JSON.stringify({ state, attempts, atSink })}`);
    });
    expect(heldRow).toMatchObject({ status: 'queued', attempts: 0 });
    expect(sink.received.some((m) => m.to.includes('held@dest.example'))).toBe(false);

    // The operator looks, then resumes (the real CLI).
    const shown = await runCommand(['account', 'show', '--account', a.email, '--json'], cliEnv);
    expect(shown.code, shown.stderr).toBe(0);
    const report = JSON.parse(shown.stdout) as {
      reputation: { status: string; bounce_rate: number };
      activity: { date: string; sent: number; bounced: number }[];
    };
    expect(report.reputation).toMatchObject({ status: 'paused', bounce_rate: 0.15 });
    expect(report.activity).toHaveLength(30);
    expect(report.activity.at(-1)).toMatchObject({ date: new Date().toISOString().slice(0, 10), bounced: 3 });
    const text = await runCommand(['account', 'show', '--account', a.email], cliEnv);
    expect(text.stdout).toMatch(/reputation: paused/);
    expect(text.stdout).toMatch(/bounce rate +15\.0 %/);

    // `txmail status` raises it: a paused account waits for the operator.
    const status1 = await runCommand(['status', '--json'], cliEnv);
    expect(status1.code, status1.stderr).toBe(1);
    const statusJson = JSON.parse(status1.stdout) as { reputation: { email: string; status: string }[] };
    expect(statusJson.reputation).toContainEqual(
      expect.objectContaining({ email: a.email, status: 'paused' }),
    );

    const resumed = await runCommand(['account', 'resume', '--account', a.email, '--json'], cliEnv);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ suspended: false, reputation_resumed: true });
    expect(await status(a)).toBe('healthy');
    // A fresh window: the 20 messages and 3 bounces are gone (the held message, released by the resume,
    // may be delivered already and count as the window's first).
    const fresh = (
      (await call(a, 'GET', '/api/account')).json() as {
        reputation: { messages: number; domains: { messages: number }[] };
      }
    ).reputation;
    expect(fresh).toMatchObject({ status: 'healthy', reason: null, bounce_rate: 0 });
    expect(fresh.messages).toBeLessThanOrEqual(1);
    expect(fresh.domains.every((d) => d.messages <= 1)).toBe(true);

    // It sends again, and the held message goes.
    const again = await until('a send accepted again', async () => {
      const res = await send(a, 'noreply@acme.example', 'back@dest.example');
      return res.statusCode === 200 ? res : undefined;
    });
    await allFinal([(again.json() as { id: string }).id, held]);
    expect(sink.received.some((m) => m.to.includes('held@dest.example'))).toBe(true);
  }, 120_000);

  it('pauses a tenant at once when the message that brings its window to min_messages is a delivery', async () => {
    const d = await createTenant(env.services, { plan: 'pro', domain: 'delta.example' });
    // 16 delivered and 3 bounced: 19 final, below min_messages; judged after the bounces, not paused.
    const first = [
      ...Array.from({ length: 16 }, (_, i) => `fine-${i}@dest.example`),
      ...Array.from({ length: 3 }, (_, i) => `bounce-d${i}@dest.example`),
    ];
    await allFinal(await Promise.all(first.map((to) => sendOk(d, 'noreply@delta.example', to))));
    const guard = env.services.reputation;
    await until('the judgements the bounces asked for', async () => (guard.idle ? true : undefined));
    expect(await status(d)).toBe('healthy');

    // The 20th is delivered: 3 of 20, 15 %. Paused within a second, not at the sweep minutes later.
    await allFinal([await sendOk(d, 'noreply@delta.example', 'fine-last@dest.example')]);
    await until('the tenant paused by a delivery', async () =>
      (await status(d)) === 'paused' ? true : undefined,
    );
    expect((await env.reputationState(d.accountId))?.reason).toBe(
      'the bounce rate over the last 7 days is 15.0 % (3 of 20 messages), at or above 10.0 %',
    );
    await guard.settled();
  }, 120_000);

  it('pauses a tenant on a complaint the bounce receiver records (5 % of 20, pause at 0.5 %)', async () => {
    const c = await createTenant(env.services, { plan: 'pro', domain: 'gamma.example' });
    const to = Array.from({ length: 20 }, (_, i) => `reader-${i}@dest.example`);
    const ids = await Promise.all(to.map((address) => sendOk(c, 'news@gamma.example', address)));
    await allFinal(ids);
    expect(await status(c)).toBe('healthy');
    const hex = ids[0]!.replaceAll('-', '');
    const verp = sink.received.find((m) => m.from.includes(hex))!.from;
    const answer = await smtpSend(
      inbound.port,
      { from: '', to: ['fbl@send.gamma.example'] },
      fixture('rfc5965-abuse.eml', {
        verp,
        to: to[0]!,
        messageId: `${ids[0]}@mta.txmail.test`,
        returnPathDomain: 'send.gamma.example',
      }),
    );
    expect(answer, answer.response).toMatchObject({ ok: true, code: 250 });
    await until('the tenant paused by its complaint', async () =>
      (await status(c)) === 'paused' ? true : undefined,
    );
    const state = await env.reputationState(c.accountId);
    expect(state?.reason).toBe(
      'the complaint rate over the last 7 days is 5.00 % (1 of 20 messages), at or above 0.5 %',
    );
  }, 120_000);
});
