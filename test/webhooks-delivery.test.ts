// Webhooks end to end on SQLite and PostgreSQL: the send route → the worker → a real SMTP server → the
// event → the outbox → a signed POST to a real HTTP server, verified with the standardwebhooks library.
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { newId } from '../src/ids.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../src/services.js';
import { databaseKinds } from './helpers/databases.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { MailFixture, mailFixture } from './helpers/mail-fixture.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';
import { WebhookReceiver, type ReceivedPush } from './helpers/webhook-receiver.js';

interface Payload {
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}
interface Attempt {
  event_id: string;
  event_type: string;
  attempt: number;
  success: boolean;
  status_code: number | null;
  duration_ms: number;
  response: string;
  error: string | null;
}

/** A short schedule: four attempts, 150 ms apart. */
const SCHEDULE = [0, 150, 150, 150];

describe.each(databaseKinds)('webhook delivery on $name', (kind) => {
  let env: TestEnv;
  const mail = new MailFixture({
    domains: ['dest.example', 'customer.example'],
    exchange: 'mx.dest.example',
  });
  const { sink } = mail;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    await mail.start();
    await receiver.start();
    env = await startTestEnv(kind, {
      env: { ...mail.env, TXMAIL_TEST_DOMAIN: 'test.txmail.example' },
    });
    await env.services.startWorker({ pollMs: 200 }, { schedule: SCHEDULE, pollMs: 50 });
  });
  afterAll(async () => {
    await env.close();
    await receiver.stop();
    await mail.stop();
  });

  const call = (t: Tenant, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    env.app.inject({ method, url, headers: { 'x-api-key': t.apiKey }, ...(payload ? { payload } : {}) });
  /** A Pro tenant with a verified domain and one endpoint at its own path of the receiver. */
  const setup = async (path: string, body: object = {}) => {
    const tenant = await createTenant(env.services, { plan: 'pro', domain: 'acme.example' });
    const res = await call(tenant, 'POST', '/api/webhooks', { url: receiver.url(path), ...body });
    expect(res.statusCode, res.body).toBe(201);
    const w = res.json() as { id: string; secret: string };
    return { tenant, webhookId: w.id, secret: w.secret };
  };
  const send = async (t: Tenant, to: string) => {
    const res = await call(t, 'POST', '/api/email/send', { ...validSend, to });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { id: string }).id;
  };
  const pushes = (path: string, n: number, timeoutMs = 15_000) =>
    until(
      `${n} pushes at ${path}`,
      async () => (receiver.at(path).length >= n ? receiver.at(path) : undefined),
      timeoutMs,
    );
  const verify = (secret: string, push: ReceivedPush) =>
    new Webhook(secret).verify(push.body, push.headers) as Payload;
  const deliveries = async (t: Tenant, webhookId: string) =>
    ((await call(t, 'GET', `/api/webhooks/${webhookId}/deliveries`)).json() as { data: Attempt[] }).data;
  const webhook = async (t: Tenant, webhookId: string) =>
    (await call(t, 'GET', `/api/webhooks/${webhookId}`)).json() as {
      enabled: boolean;
      disabled_reason: string | null;
    };
  const events = async (t: Tenant, emailId: string) =>
    ((await call(t, 'GET', `/api/emails/${emailId}`)).json() as { events: { id: string; type: string }[] })
      .events;
  /**
   * Waits until no push to the endpoint is pending: every push queued for it has been made and recorded
   * (the outbox is the only source of pushes), so nothing more reaches it until a new event is queued.
   */
  const settled = (webhookId: string) =>
    until(`every push to ${webhookId} final`, async () => {
      const pushes = await env.webhookPushes(webhookId);
      return pushes.some((p) => p.status === 'pending') ? undefined : true;
    });
  /** Waits until the message's `type` event is recorded (with the pushes it queued: one transaction). */
  const recorded = (t: Tenant, emailId: string, type: string) =>
    until(`${type} recorded for ${emailId}`, async () =>
      (await events(t, emailId)).some((e) => e.type === type) ? true : undefined,
    );

  it('pushes a verified email.delivered for a message delivered over SMTP, and nothing for unsubscribed events', async () => {
    const { tenant, webhookId, secret } = await setup('/delivered');
    const id = await send(tenant, 'Jane Doe <jane@dest.example>');
    const [push] = await pushes('/delivered', 1);
    const payload = verify(secret, push!);
    expect(payload).toMatchObject({
      type: 'email.delivered',
      data: {
        email_id: id,
        from: 'Acme <noreply@acme.example>',
        to: 'Jane Doe <jane@dest.example>',
        subject: validSend.subject,
        smtp_code: 250,
        remote_host: 'mx.dest.example',
      },
    });
    expect(Date.parse(payload.created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(push!.headers['content-type']).toBe('application/json');
    // webhook-id is the event's id: stable across retries, so receivers can deduplicate.
    const delivered = (await events(tenant, id)).find((e) => e.type === 'email.delivered')!;
    expect(push!.headers['webhook-id']).toBe(delivered.id);
    expect(Math.abs(Number(push!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    // Every event of the message is recorded (email.delivered is its last): once no push is pending,
    // none can come.
    await settled(webhookId);
    expect(receiver.at('/delivered')).toHaveLength(1); // no email.queued push
  });

  it('pushes email.bounced when the SMTP server refuses the recipient', async () => {
    const { tenant, secret } = await setup('/bounced');
    const id = await send(tenant, 'bounce-7@dest.example');
    const [push] = await pushes('/bounced', 1);
    expect(verify(secret, push!)).toMatchObject({
      type: 'email.bounced',
      data: {
        email_id: id,
        to: 'bounce-7@dest.example',
        smtp_code: 550,
        enhanced_code: '5.1.1',
        bounce_type: 'permanent',
      },
    });
  });

  it('pushes only the subscribed optional events (email.delivery_delayed)', async () => {
    const { tenant, webhookId, secret } = await setup('/delayed', { events: ['email.delivery_delayed'] });
    const ok = await send(tenant, 'ok-1@dest.example');
    const id = await send(tenant, 'defer-3@dest.example');
    const [push] = await pushes('/delayed', 1);
    expect(verify(secret, push!)).toMatchObject({
      type: 'email.delivery_delayed',
      data: { email_id: id, smtp_code: 451 },
    });
    // ok-1's email.delivered is recorded (and would have queued its push with it), and only a first
    // deferral is an event: once no push is pending, none can come.
    await recorded(tenant, ok, 'email.delivered');
    await settled(webhookId);
    expect(receiver.at('/delayed')).toHaveLength(1);
  });

  it('retries a failing endpoint on schedule until it recovers, and lists every attempt', async () => {
    const { tenant, webhookId, secret } = await setup('/flaky');
    const before = receiver.respond;
    receiver.respond = (push, i) =>
      push.path === '/flaky' && receiver.at('/flaky').length <= 3
        ? { status: 500, body: 'nope' }
        : before(push, i);
    try {
      await send(tenant, 'flaky-hook@dest.example');
      const got = await pushes('/flaky', 4);
      await settled(webhookId);
      expect(receiver.at('/flaky')).toHaveLength(4); // once per attempt, none after the success
      // The same signed event every time, spaced by the schedule.
      expect(new Set(got.map((p) => p.headers['webhook-id'])).size).toBe(1);
      for (const p of got) expect(verify(secret, p).type).toBe('email.delivered');
      for (let i = 1; i < 4; i++)
        expect(got[i]!.at - got[i - 1]!.at).toBeGreaterThanOrEqual(SCHEDULE[i]! - 20);
      const attempts = await until('4 attempts recorded', async () => {
        const list = await deliveries(tenant, webhookId);
        return list.length === 4 ? list : undefined;
      });
      expect(attempts.map((a) => [a.attempt, a.success, a.status_code])).toEqual([
        [4, true, 200],
        [3, false, 500],
        [2, false, 500],
        [1, false, 500],
      ]);
      expect(attempts[1]).toMatchObject({ response: 'nope', event_type: 'email.delivered', error: null });
      expect(attempts[0]!.event_id).toBe(got[0]!.headers['webhook-id']);
      expect((await webhook(tenant, webhookId)).enabled).toBe(true);
      // The message's own detail lists its pushes, oldest first.
      const email = JSON.parse(got[0]!.body) as { data: { email_id: string } };
      const detail = (await call(tenant, 'GET', `/api/emails/${email.data.email_id}`)).json() as {
        webhook_deliveries: { attempt: number; success: boolean; status_code: number; url: string }[];
      };
      expect(detail.webhook_deliveries.map((d) => [d.attempt, d.success, d.status_code])).toEqual([
        [1, false, 500],
        [2, false, 500],
        [3, false, 500],
        [4, true, 200],
      ]);
      expect(detail.webhook_deliveries[0]!.url).toBe(receiver.url('/flaky'));
    } finally {
      receiver.respond = before;
    }
  });

  it('pages the attempts with a cursor', async () => {
    const { tenant, webhookId } = await setup('/paged');
    for (let i = 0; i < 3; i++)
      expect((await call(tenant, 'POST', `/api/webhooks/${webhookId}/test`)).statusCode).toBe(200);
    const first = (await call(tenant, 'GET', `/api/webhooks/${webhookId}/deliveries?limit=2`)).json() as {
      data: Attempt[];
      next_cursor: string;
    };
    expect(first.data).toHaveLength(2);
    const second = (
      await call(tenant, 'GET', `/api/webhooks/${webhookId}/deliveries?limit=2&cursor=${first.next_cursor}`)
    ).json() as { data: Attempt[]; next_cursor: string | null };
    expect(second.data).toHaveLength(1);
    expect(second.next_cursor).toBeNull();
    expect((await call(tenant, 'GET', `/api/webhooks/${webhookId}/deliveries?cursor=bad`)).statusCode).toBe(
      400,
    );
  });

  it('honours Retry-After when it asks for more time than the schedule', async () => {
    const { tenant } = await setup('/retry-after');
    const before = receiver.respond;
    receiver.respond = (push, i) =>
      push.path === '/retry-after' && receiver.at('/retry-after').length === 1
        ? { status: 503, headers: { 'retry-after': '2' } }
        : before(push, i);
    try {
      await send(tenant, 'ra@dest.example');
      const [first, second] = await pushes('/retry-after', 2);
      expect(second!.at - first!.at).toBeGreaterThanOrEqual(1900);
    } finally {
      receiver.respond = before;
    }
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const { tenant, webhookId } = await setup('/redirect', {});
    const before = receiver.respond;
    receiver.respond = (push, i) =>
      push.path === '/redirect'
        ? { status: 302, headers: { location: receiver.url('/elsewhere') } }
        : before(push, i);
    try {
      await send(tenant, 'redirect@dest.example');
      await pushes('/redirect', 2);
      expect(receiver.at('/elsewhere')).toEqual([]);
      const attempts = await deliveries(tenant, webhookId);
      expect(attempts[0]).toMatchObject({ success: false, status_code: 302 });
    } finally {
      receiver.respond = before;
    }
  });

  it('disables the endpoint at once on 410 Gone, tells the account (notice and email) and pushes nothing more', async () => {
    const { tenant, webhookId } = await setup('/gone');
    const before = receiver.respond;
    receiver.respond = (push, i) => (push.path === '/gone' ? { status: 410, body: 'gone' } : before(push, i));
    try {
      await send(tenant, 'one@dest.example');
      await pushes('/gone', 1);
      const w = await until('the endpoint to be disabled', async () => {
        const got = await webhook(tenant, webhookId);
        return got.enabled ? undefined : got;
      });
      expect(w.disabled_reason).toBe('it answered 410 Gone');
      await expectTold(tenant, webhookId, 'it answered 410 Gone');
      const two = await send(tenant, 'two@dest.example');
      await until('two@ delivered', async () => sink.for('two@dest.example')[0]);
      // Its email.delivered is recorded: a push to an enabled endpoint would have been queued with it.
      await recorded(tenant, two, 'email.delivered');
      await settled(webhookId);
      expect(receiver.at('/gone')).toHaveLength(1);
    } finally {
      receiver.respond = before;
    }
  });

  it('disables the endpoint after the last scheduled attempt fails and tells the account', async () => {
    const { tenant, webhookId } = await setup('/down');
    const before = receiver.respond;
    receiver.respond = (push, i) => (push.path === '/down' ? { status: 500 } : before(push, i));
    try {
      await send(tenant, 'down@dest.example');
      await pushes('/down', SCHEDULE.length);
      const w = await until('the endpoint to be disabled', async () => {
        const got = await webhook(tenant, webhookId);
        return got.enabled ? undefined : got;
      });
      expect(w.disabled_reason).toBe('4 attempts to deliver an event failed (last: HTTP 500)');
      await expectTold(tenant, webhookId, '4 attempts to deliver an event failed');
      await settled(webhookId);
      expect(receiver.at('/down')).toHaveLength(SCHEDULE.length);
    } finally {
      receiver.respond = before;
    }
  });

  async function expectTold(tenant: Tenant, webhookId: string, why: string) {
    const notices = (
      (await call(tenant, 'GET', '/api/account/notices')).json() as {
        data: { kind: string; message: string; data: { webhook_id: string } }[];
      }
    ).data;
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ kind: 'webhook_disabled', data: { webhook_id: webhookId } });
    expect(notices[0]!.message).toContain(why);
    // An email to the signup address, sent through txmail itself and recorded in the account's log.
    const mail = await until('the notification email', async () => sink.for(tenant.email)[0]);
    expect(mail.raw.toString()).toContain('From: txmail <notifications@test.txmail.example>');
    expect(mail.raw.toString()).toContain('Subject: Your txmail webhook endpoint was disabled');
    const log = (await call(tenant, 'GET', `/api/emails?to=${encodeURIComponent(tenant.email)}`)).json() as {
      data: { status: string }[];
    };
    expect(log.data).toHaveLength(1);
  }

  it('sends a signed webhook.test on demand, signed with both secrets after a rotation', async () => {
    const { tenant, webhookId, secret } = await setup('/test-route');
    const res = await call(tenant, 'POST', `/api/webhooks/${webhookId}/test`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      event_type: 'webhook.test',
      success: true,
      status_code: 200,
      response: 'ok',
    });
    const [push] = await pushes('/test-route', 1);
    expect(verify(secret, push!)).toMatchObject({ type: 'webhook.test', data: { webhook_id: webhookId } });

    const rotated = (await call(tenant, 'POST', `/api/webhooks/${webhookId}/rotate-secret`)).json() as {
      secret: string;
    };
    await call(tenant, 'POST', `/api/webhooks/${webhookId}/test`);
    const [, second] = await pushes('/test-route', 2);
    expect(second!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verify(rotated.secret, second!).type).toBe('webhook.test');
    expect(verify(secret, second!).type).toBe('webhook.test');

    // A failing endpoint: the answer says so, with the response excerpt (at most 1 KiB).
    const before = receiver.respond;
    receiver.respond = (p, i) =>
      p.path === '/test-route' ? { status: 500, body: 'x'.repeat(5000) } : before(p, i);
    try {
      const failed = (await call(tenant, 'POST', `/api/webhooks/${webhookId}/test`)).json() as Attempt;
      expect(failed).toMatchObject({ success: false, status_code: 500 });
      expect(failed.response).toHaveLength(1024);
    } finally {
      receiver.respond = before;
    }
  });

  it('replays an event of the account, to one endpoint or to every subscribed one', async () => {
    const { tenant, webhookId, secret } = await setup('/replay');
    const id = await send(tenant, 'replay@dest.example');
    const [first] = await pushes('/replay', 1);
    const eventId = first!.headers['webhook-id']!;
    const res = await call(tenant, 'POST', `/api/webhooks/${webhookId}/replay`, { event_id: eventId });
    expect(res.statusCode, res.body).toBe(202);
    const [, again] = await pushes('/replay', 2);
    expect(again!.headers['webhook-id']).toBe(eventId);
    expect(verify(secret, again!).data.email_id).toBe(id);
    // Any event, even one of a type the endpoint does not subscribe to (email.queued).
    const queued = (await events(tenant, id)).find((e) => e.type === 'email.queued')!;
    expect(
      (await call(tenant, 'POST', `/api/webhooks/${webhookId}/replay`, { event_id: queued.id })).statusCode,
    ).toBe(202);
    const [, , third] = await pushes('/replay', 3);
    expect(verify(secret, third!).type).toBe('email.queued');
    // Never a report's event: it is pushed to no webhook, and its text may quote the message.
    const report = newId();
    await env.addEvents([
      {
        id: report,
        account_id: tenant.accountId,
        message_id: id,
        type: 'email.report_received',
        data: JSON.stringify({ kind: 'undetermined', category: 'undetermined', text: 'a quoted link' }),
        created_at: Date.now(),
      },
    ]);
    const refused = await call(tenant, 'POST', `/api/webhooks/${webhookId}/replay`, { event_id: report });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatch(/^validation_error: email\.report_received events are never sent/);
    const all = await call(tenant, 'POST', `/api/events/${eventId}/replay`);
    expect(all.json()).toEqual({ event_id: eventId, webhook_ids: [webhookId], status: 'queued' });
    await pushes('/replay', 4);

    // Another account can neither replay this event nor find it.
    const other = await setup('/replay-other');
    const foreign = await call(other.tenant, 'POST', `/api/webhooks/${other.webhookId}/replay`, {
      event_id: eventId,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await call(other.tenant, 'POST', `/api/events/${eventId}/replay`)).statusCode).toBe(404);
    expect(receiver.at('/replay-other')).toEqual([]);
  });
});

describe.each(databaseKinds)('webhook durability and safety on $name', (kind) => {
  it('loses nothing when the process restarts between attempts', async () => {
    const mail = await mailFixture({ domains: ['dest.example'] });
    const receiver = await new WebhookReceiver().start();
    const env = await startTestEnv(kind, { env: mail.env });
    let restarted: Awaited<ReturnType<typeof createServices>> | undefined;
    try {
      receiver.respond = (_p, i) => (i === 0 ? { status: 503 } : { status: 200 });
      const schedule = [0, 1500];
      await env.services.startWorker({ pollMs: 100 }, { schedule, pollMs: 50 });
      const tenant = await createTenant(env.services, { plan: 'pro', domain: 'acme.example' });
      const created = await env.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: { 'x-api-key': tenant.apiKey },
        payload: { url: receiver.url() },
      });
      const { id: webhookId, secret } = created.json() as { id: string; secret: string };
      await env.app.inject({
        method: 'POST',
        url: '/api/email/send',
        headers: { 'x-api-key': tenant.apiKey },
        payload: { ...validSend, to: 'restart@dest.example' },
      });
      await until('the first, failed attempt', async () =>
        receiver.received.length === 1 ? true : undefined,
      );
      await until('the first attempt recorded', async () => {
        const [row] = await env.webhookPushes(webhookId);
        return row && Number(row.attempts) === 1 ? row : undefined;
      });
      // The process stops before the retry is due…
      await env.app.close();
      await env.services.close();
      // …and a new one on the same database makes it.
      restarted = await createServices(env.services.config, {
        logger: pino({ level: 'silent' }),
        migrate: false,
      });
      await restarted.startWorker({ pollMs: 100 }, { schedule, pollMs: 50 });
      await until('the retry after the restart', async () =>
        receiver.received.length === 2 ? true : undefined,
      );
      const [first, second] = receiver.received;
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect(new Webhook(secret).verify(second!.body, second!.headers)).toMatchObject({
        type: 'email.delivered',
      });
      const row = await until('the push recorded delivered', async () => {
        const r = await restarted!.db.kysely.selectFrom('webhook_outbox').selectAll().executeTakeFirst();
        return r?.status === 'delivered' ? r : undefined;
      });
      expect(Number(row.attempts)).toBe(2);
    } finally {
      await restarted?.close();
      await env.database.drop();
      await receiver.stop();
      await mail.stop();
    }
  });

  it('refuses at delivery a name that has come to resolve to a private address (DNS rebinding)', async () => {
    const dns = await new TestDnsServer().start();
    const receiver = await new WebhookReceiver().start();
    // Mail to internal.example bounces (its MX is private and private networks are not allowed):
    // that bounce is the event pushed.
    dns.add('internal.example', 'MX', { preference: 10, exchange: 'mx.internal.example' });
    dns.add('mx.internal.example', 'A', '127.0.0.1');
    dns.add('hooks.rebind.example', 'A', '93.184.216.34');
    const env = await startTestEnv(kind, { env: { TXMAIL_DNS_SERVERS: dns.address } });
    try {
      await env.services.startWorker({ pollMs: 100 }, { schedule: [0], pollMs: 50 });
      const tenant = await createTenant(env.services, { plan: 'pro', domain: 'acme.example' });
      const created = await env.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: { 'x-api-key': tenant.apiKey },
        payload: { url: `https://hooks.rebind.example:${receiver.port}/hook` },
      });
      expect(created.statusCode, created.body).toBe(201);
      const webhookId = (created.json() as { id: string }).id;
      // After the check at creation, the name is pointed at the loopback address where the receiver listens.
      dns.remove('hooks.rebind.example').add('hooks.rebind.example', 'A', '127.0.0.1');
      await env.app.inject({
        method: 'POST',
        url: '/api/email/send',
        headers: { 'x-api-key': tenant.apiKey },
        payload: { ...validSend, to: 'someone@internal.example' },
      });
      const attempts = await until('the refused attempt', async () => {
        const res = await env.app.inject({
          method: 'GET',
          url: `/api/webhooks/${webhookId}/deliveries`,
          headers: { 'x-api-key': tenant.apiKey },
        });
        const data = (res.json() as { data: Attempt[] }).data;
        return data.length > 0 ? data : undefined;
      });
      expect(attempts[0]).toMatchObject({ event_type: 'email.bounced', success: false, status_code: null });
      expect(attempts[0]!.error).toContain('hooks.rebind.example resolves to 127.0.0.1');
      expect(receiver.received).toEqual([]);
    } finally {
      await env.close();
      await receiver.stop();
      await dns.stop();
    }
  });
});
