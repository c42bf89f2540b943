// Simulator addresses end to end on SQLite and PostgreSQL (docs/design.md §16): a sandboxed account
// sends from a domain it has not verified to <kind>@simulator.<test domain>; the real worker and
// receiver record the simulated answers (statuses, events with their categories, webhooks), nothing is
// suppressed or counted against the account, each counts as a test send, and no SMTP connection is
// made for them: the simulator's domain has an MX at the sink, which sees only the one real message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

const TEST_DOMAIN = 'test.txmail.example';
const SIM = `simulator.${TEST_DOMAIN}`;

interface Detail {
  id: string;
  status: string;
  category: string | null;
  events: { type: string; data: Record<string, unknown> }[];
  raw_bytes: number | null;
  next_attempt_at: string | null;
  next: { at: string; reason: string; why: string; attempt: number; expires_at: string } | null;
}

describe.each(databaseKinds)('simulator addresses on $name', (kind) => {
  let env: TestEnv;
  let sandboxed: Tenant;
  const mail = new MailFixture({ domains: ['dest.example', SIM], exchange: 'mx.dest.example' });
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await mail.start();
    await receiver.start();
    env = await startTestEnv(kind, { env: { ...mail.env, TXMAIL_TEST_DOMAIN: TEST_DOMAIN } });
    await env.services.startWorker({ pollMs: 100 }, { schedule: [0, 150, 150], pollMs: 50 });
    await env.services.startInbound({ port: 0 });
    // Pro (webhooks) without a domain: in the sandbox.
    sandboxed = await createTenant(env.services, { plan: 'pro' });
    const hook = await call(sandboxed, 'POST', '/api/webhooks', {
      url: receiver.url('/sim'),
      events: ['email.delivered', 'email.bounced', 'email.complained', 'email.delivery_delayed'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
  });
  afterAll(async () => {
    await env?.close();
    await receiver.stop();
    await mail.stop();
  });

  const call = (t: Tenant, method: 'GET' | 'POST', url: string, payload?: object) =>
    env.app.inject({ method, url, headers: { 'x-api-key': t.apiKey }, ...(payload ? { payload } : {}) });
  const send = async (t: Tenant, to: string, from = 'Acme <noreply@unverified.example>') => {
    const res = await call(t, 'POST', '/api/email/send', { ...validSend, from, to });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'queued' });
    return (res.json() as { id: string }).id;
  };
  const detail = async (t: Tenant, id: string) =>
    (await call(t, 'GET', `/api/emails/${id}`)).json() as Detail;
  const reaches = (t: Tenant, id: string, test: (d: Detail) => boolean) =>
    until(`${id} as expected`, async () => {
      const d = await detail(t, id);
      return test(d) ? d : undefined;
    });

  it('answers each address as its name says, with events, categories and webhooks', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const before = (await env.testUsage(sandboxed.accountId)).find((u) => u.day === today)?.sent ?? 0;
    const ids = {
      delivered: await send(sandboxed, `delivered@${SIM}`),
      bounce: await send(sandboxed, `Someone <bounce@${SIM.toUpperCase()}>`),
      complaint: await send(sandboxed, `complaint@${SIM}`),
      delayed: await send(sandboxed, `delayed@${SIM}`),
      suppressed: await send(sandboxed, `suppressed@${SIM}`),
    };
    // Each counts as a test send of the day, none toward the monthly cap.
    const account = (await call(sandboxed, 'GET', '/api/account')).json() as {
      usage: { sent: number };
      test_sends: { sent: number };
    };
    expect(account.test_sends.sent).toBe(before + 5);
    expect(account.usage.sent).toBe(0);

    // The bytes are kept with the attempt's record, in its transaction: there once the status is.
    const delivered = await reaches(sandboxed, ids.delivered, (d) => d.status === 'delivered');
    expect(delivered.events.map((e) => e.type)).toEqual(['email.delivered', 'email.queued']);
    expect(delivered.raw_bytes).toBeGreaterThan(0);
    // From a domain the account may not send from, nothing signs it: no key of the service vouches for
    // a From the customer wrote, the test domain's least of all.
    const raw = async (id: string) => {
      const res = await call(sandboxed, 'GET', `/api/emails/${id}/raw`);
      expect(res.statusCode).toBe(200);
      return res.body;
    };
    expect(await raw(ids.delivered)).not.toMatch(/^DKIM-Signature:/im);

    const bounced = await reaches(sandboxed, ids.bounce, (d) => d.status === 'bounced');
    expect(bounced.category).toBe('unknown_recipient');
    expect(bounced.events[0]).toMatchObject({
      type: 'email.bounced',
      data: { category: 'unknown_recipient', enhanced_code: '5.1.1' },
    });

    const suppressed = await reaches(sandboxed, ids.suppressed, (d) => d.status === 'bounced');
    expect(suppressed.category).toBe('unknown_recipient');

    const delayed = await reaches(sandboxed, ids.delayed, (d) => d.status === 'deferred');
    expect(delayed.category).toBe('mailbox_full');
    expect(delayed.events[0]).toMatchObject({
      type: 'email.delivery_delayed',
      data: { category: 'mailbox_full' },
    });
    // What happens next: the retry, when, and when it expires (two days after its acceptance).
    expect(delayed.next).toMatchObject({ reason: 'retry', attempt: 2, at: delayed.next_attempt_at });
    expect(delayed.next!.why).toMatch(
      /^retry 1 \(attempt 2\) at \S+ after a temporary failure \(mailbox_full\); it expires at \S+$/,
    );
    const listed = (await call(sandboxed, 'GET', `/api/emails?q=${ids.delayed}`)).json() as {
      data: { next: unknown }[];
    };
    expect(listed.data[0]!.next).toEqual(delayed.next);
    expect(delivered.next).toBeNull();

    // The complaint comes back as an abuse report, read by the receiver after the delivery.
    const complained = await reaches(sandboxed, ids.complaint, (d) => d.status === 'complained');
    expect(complained.category).toBe('complaint');
    expect(complained.events.map((e) => e.type)).toEqual([
      'email.complained',
      'email.delivered',
      'email.queued',
    ]);

    // The retry of delayed@ is delivered: made due now rather than waited for.
    await env.updateMessage(ids.delayed, { next_attempt_at: Date.now() });
    await reaches(sandboxed, ids.delayed, (d) => d.status === 'delivered');

    const pushes = await until('webhook pushes', async () => {
      const types = receiver.at('/sim').map((p) => (JSON.parse(p.body) as { type: string }).type);
      return types.length >= 7 ? types : undefined;
    });
    expect([...pushes].sort()).toEqual([
      'email.bounced',
      'email.bounced',
      'email.complained',
      'email.delivered',
      'email.delivered',
      'email.delivered',
      'email.delivery_delayed',
    ]);

    // Nothing suppressed, nothing counted against the account: the rehearsal can run again.
    const list = (await call(sandboxed, 'GET', '/api/suppressions')).json() as { data: unknown[] };
    expect(list.data).toEqual([]);
    expect(await env.reputationDays(sandboxed.accountId)).toEqual([]);
    await send(sandboxed, `bounce@${SIM}`);
  });

  it('keeps the sandbox and the unverified domain for every other recipient', async () => {
    const res = await call(sandboxed, 'POST', '/api/email/send', {
      ...validSend,
      from: 'noreply@unverified.example',
      to: 'someone@dest.example',
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toMatch(/^account_sandboxed: /);
  });

  it('never opens an SMTP connection for the simulator', async () => {
    // A real message after the simulated ones: the sink sees it, and nothing else.
    const sender = await createTenant(env.services, { domain: 'acme.example' });
    const simulated = await send(sender, `delivered@${SIM}`, 'noreply@acme.example');
    await reaches(sender, simulated, (d) => d.status === 'delivered');
    const id = await send(sender, `someone@dest.example`, 'noreply@acme.example');
    await reaches(sender, id, (d) => d.status === 'delivered');
    expect(mail.sink.received.map((r) => r.to)).toEqual([['someone@dest.example']]);
    expect(mail.sink.connections).toBe(1);
  });

  it("never signs a customer's From with the service's key, whatever it claims", async () => {
    const posing = await send(sandboxed, `delivered@${SIM}`, `Security <security@${TEST_DOMAIN}>`);
    await reaches(sandboxed, posing, (d) => d.status === 'delivered');
    const res = await call(sandboxed, 'GET', `/api/emails/${posing}/raw`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`From: Security <security@${TEST_DOMAIN}>`);
    expect(res.body).not.toMatch(/^DKIM-Signature:/im);
  });
});
