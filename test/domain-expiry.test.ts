// Expiry for time-sensitive mail on SQLite and PostgreSQL (docs/API.md, Domains: expire_after): the
// PATCH and its validation, a deferred message that ends failed as expired at its deadline without an
// attempt past it, a message already expired when claimed that is never tried, the default of two
// days, and the email.failed push. Time is a manual clock: no test waits out a deadline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import type { DeliveryWorker } from '../src/delivery/worker.js';
import { databaseKinds } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { messageRow } from './helpers/message-row.js';
import { until } from './helpers/wait.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

interface Push {
  type: string;
  data: Record<string, unknown>;
}

describe.each(databaseKinds)('domain expiry on $name', (kind) => {
  const mail = new MailFixture({ domains: ['dest.example'] });
  const { sink } = mail;
  const receiver = new WebhookReceiver();
  const clock = new ManualClock(Date.UTC(2026, 10, 22, 9, 0, 0));
  let env: TestEnv;
  let worker: DeliveryWorker | undefined;

  beforeAll(async () => {
    await mail.start();
    await receiver.start();
    env = await startTestEnv(kind, { clock, env: mail.env });
  });
  afterAll(async () => {
    await env?.close();
    await receiver.stop();
    await mail.stop();
  });

  /** The worker, started on first use (the first test queues mail before any worker runs). */
  const startWorker = async () =>
    (worker ??= await env.services.startWorker({ pollMs: 50 }, { schedule: [0, 150, 150, 150], pollMs: 50 }));
  const call = (t: Tenant, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    env.app.inject({
      method,
      url,
      headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  /** A tenant with its own verified domain; answers the domain's id too. */
  const tenantWithDomain = async (domain: string) => {
    const tenant = await createTenant(env.services, { domain });
    const [row] = await env.domainsOf(tenant.accountId);
    return { tenant, domainId: row!.id };
  };
  const setExpireAfter = async (t: Tenant, domainId: string, value: unknown) => {
    const res = await call(t, 'PATCH', `/api/domains/${domainId}`, { expire_after: value });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { expire_after: number | null };
  };
  const send = async (t: Tenant, domain: string, to: string) => {
    const res = await call(t, 'POST', '/api/email/send', {
      ...validSend,
      from: `Acme <codes@${domain}>`,
      to,
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { id: string }).id;
  };
  const message = (t: Tenant, id: string) => env.message(t.accountId, id);
  /** The message once the worker has recorded it in `status` (its lease given back). */
  const settled = (t: Tenant, id: string, status: string, attempts: number) =>
    until(`${id} ${status} after ${attempts} attempts`, async () => {
      const m = await message(t, id);
      return m && m.status === status && m.attempts === attempts && m.lease_owner === null ? m : undefined;
    });
  const failedEvent = async (t: Tenant, id: string) =>
    (await env.events(t.accountId, id)).find((e) => e.type === 'email.failed');
  const receivedFor = (address: string) => sink.received.filter((r) => r.to.includes(address)).length;

  it('fails a message already past its expiry when claimed, without an attempt', async () => {
    const { tenant, domainId } = await tenantWithDomain('queued.example');
    await setExpireAfter(tenant, domainId, 60);
    // Accepted while no worker runs: it waits in the queue past its minute.
    const id = await send(tenant, 'queued.example', 'waited@dest.example');
    const createdAt = clock.now();
    clock.advance(61_000);
    await startWorker();
    const m = await settled(tenant, id, 'failed', 0);
    expect(m).toMatchObject({ next_attempt_at: null, category: 'expired' });
    expect(await env.attempts(tenant.accountId, id)).toEqual([]);
    expect(receivedFor('waited@dest.example')).toBe(0);
    const failed = await failedEvent(tenant, id);
    expect(JSON.parse(failed!.data)).toMatchObject({
      reason: 'expired',
      category: 'expired',
      last_category: null,
      attempts: 0,
      expired_at: new Date(createdAt + 60_000).toISOString(),
      detail: 'not delivered within 1 minute; not tried again',
    });
  });

  it('accepts expire_after from 60 to 172800 seconds or null, shows it, and refuses anything else', async () => {
    const { tenant, domainId } = await tenantWithDomain('valid.example');
    const get = async () =>
      (await call(tenant, 'GET', `/api/domains/${domainId}`)).json() as { expire_after: unknown };
    const list = async () =>
      ((await call(tenant, 'GET', '/api/domains')).json() as { data: { expire_after: unknown }[] }).data;
    expect((await get()).expire_after).toBeNull();
    expect((await list())[0]!.expire_after).toBeNull();
    for (const value of [60, 600, 172800]) {
      expect((await setExpireAfter(tenant, domainId, value)).expire_after).toBe(value);
      expect((await get()).expire_after).toBe(value);
      expect((await list())[0]!.expire_after).toBe(value);
    }
    expect((await setExpireAfter(tenant, domainId, null)).expire_after).toBeNull();
    expect((await get()).expire_after).toBeNull();

    const refused: [unknown, RegExp][] = [
      [{ expire_after: 59 }, /^validation_error: "expire_after" must be between 60 and 172800 seconds/],
      [{ expire_after: 172801 }, /^validation_error: "expire_after" must be between 60 and 172800 seconds/],
      [{ expire_after: 0 }, /^validation_error: "expire_after" must be between/],
      [{ expire_after: -600 }, /^validation_error: "expire_after" must be between/],
      [{ expire_after: 600.5 }, /^validation_error: "expire_after" must be a whole number of seconds/],
      [{ expire_after: '600' }, /^validation_error: "expire_after" must be a whole number of seconds/],
      [{ expire_after: true }, /^validation_error: "expire_after" must be a whole number of seconds/],
      [{ expire_after: [600] }, /^validation_error: "expire_after" must be a whole number of seconds/],
      [{ expire_after: {} }, /^validation_error: "expire_after" must be a whole number of seconds/],
      [{}, /^validation_error: "expire_after", "tls" or "dkim_ed25519" is required/],
      [{ expire_after: 600, name: 'other.example' }, /^validation_error: unknown field "name"/],
      [[600], /^validation_error: /],
    ];
    for (const [body, expected] of refused) {
      const res = await call(tenant, 'PATCH', `/api/domains/${domainId}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toMatch(expected);
    }
    // Nothing refused changed the value.
    expect((await get()).expire_after).toBeNull();

    // Another account's domain, or none: 404, whatever the body.
    const other = await tenantWithDomain('other.example');
    const foreign = await call(other.tenant, 'PATCH', `/api/domains/${domainId}`, { expire_after: 600 });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toMatch(/^not_found: /);
    const unknown = await call(tenant, 'PATCH', '/api/domains/not-a-domain', { expire_after: 600 });
    expect(unknown.statusCode).toBe(404);
    expect((await get()).expire_after).toBeNull();
  });

  it('fails a deferred message at the attempt whose retry would fall past its expiry, and pushes email.failed', async () => {
    const { tenant, domainId } = await tenantWithDomain('codes.example');
    const hook = await call(tenant, 'POST', '/api/webhooks', {
      url: receiver.url('/failed'),
      events: ['email.failed'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    // Ten minutes: the first retry (5 min ± 15 %) comes before the deadline, the second (10 min ± 15 %
    // after it) would come after.
    await setExpireAfter(tenant, domainId, 600);
    await startWorker();
    const id = await send(tenant, 'codes.example', 'defer-code@dest.example');
    const createdAt = clock.now();
    const deferredCategory = (await settled(tenant, id, 'deferred', 1)).category;
    const retryAt = Number((await message(tenant, id))!.next_attempt_at);
    expect(retryAt).toBeLessThan(createdAt + 600_000);
    // The log tells the deadline the worker applies: the domain's ten minutes, in the detail and the list.
    const expiresAt = new Date(createdAt + 600_000).toISOString();
    const shown = (await call(tenant, 'GET', `/api/emails/${id}`)).json() as { next: { expires_at: string } };
    expect(shown.next.expires_at).toBe(expiresAt);
    const listed = (await call(tenant, 'GET', '/api/emails')).json() as {
      data: { id: string; next: { expires_at: string } | null }[];
    };
    expect(listed.data.find((e) => e.id === id)!.next!.expires_at).toBe(expiresAt);

    clock.set(retryAt);
    worker!.wake();
    const m = await settled(tenant, id, 'failed', 2);
    expect(m).toMatchObject({ next_attempt_at: null, category: 'expired' });
    const failed = JSON.parse((await failedEvent(tenant, id))!.data) as Record<string, unknown>;
    expect(failed).toMatchObject({
      reason: 'expired',
      category: 'expired',
      last_category: deferredCategory,
      attempt: 2,
      expired_at: new Date(createdAt + 600_000).toISOString(),
    });
    expect(failed.detail).toMatch(
      /^not delivered within 10 minutes: no attempt was due before then; last reply: 451 /,
    );
    // Every attempt started before the deadline; none is left to come.
    const attempts = await env.attempts(tenant.accountId, id);
    expect(attempts).toHaveLength(2);
    for (const a of attempts) expect(Number(a.started_at)).toBeLessThan(createdAt + 600_000);
    expect(receivedFor('defer-code@dest.example')).toBe(0);

    // Pushed to the endpoint subscribed to email.failed, as any other event.
    const [push] = await until('the email.failed push', async () => {
      const got = receiver.at('/failed');
      return got.length > 0 ? got : undefined;
    });
    expect(JSON.parse(push!.body) as Push).toMatchObject({
      type: 'email.failed',
      data: { email_id: id, reason: 'expired', category: 'expired', last_category: deferredCategory },
    });
  });

  it('with expire_after 60, a deferral fails at once: its first retry would already be past the minute', async () => {
    const { tenant, domainId } = await tenantWithDomain('minute.example');
    await setExpireAfter(tenant, domainId, 60);
    await startWorker();
    const id = await send(tenant, 'minute.example', 'defer-minute@dest.example');
    const m = await settled(tenant, id, 'failed', 1);
    expect(m).toMatchObject({ next_attempt_at: null, category: 'expired' });
    expect(JSON.parse((await failedEvent(tenant, id))!.data)).toMatchObject({
      reason: 'expired',
      detail: expect.stringMatching(
        /^not delivered within 1 minute: no attempt was due before then; last reply: 451 /,
      ) as unknown,
    });
    // No delivery_delayed: the message never waited for a retry.
    const types = (await env.events(tenant.accountId, id)).map((e) => e.type);
    expect(types).not.toContain('email.delivery_delayed');
  });

  it('weighs a retry against a deadline lowered while the attempt was under way', async () => {
    const { tenant, domainId } = await tenantWithDomain('lowered.example');
    await setExpireAfter(tenant, domainId, 600);
    await startWorker();
    const to = 'holddefer-lowered@dest.example';
    const id = await send(tenant, 'lowered.example', to);
    const createdAt = clock.now();
    await until('the attempt waiting for its reply', async () => (sink.held(to) ? true : undefined));
    // A minute: the first retry (5 min) would now come after the deadline.
    await setExpireAfter(tenant, domainId, 60);
    sink.release(to);
    const m = await settled(tenant, id, 'failed', 1);
    expect(m).toMatchObject({ next_attempt_at: null, category: 'expired', deadline_at: createdAt + 60_000 });
    const events = await env.events(tenant.accountId, id);
    expect(events.map((e) => e.type)).not.toContain('email.delivery_delayed');
    expect(JSON.parse(events.find((e) => e.type === 'email.failed')!.data)).toMatchObject({
      reason: 'expired',
      expired_at: new Date(createdAt + 60_000).toISOString(),
      detail: expect.stringMatching(
        /^not delivered within 1 minute: no attempt was due before then/,
      ) as unknown,
    });

    // Raised the same way: the retry the old deadline ruled out comes after all.
    await setExpireAfter(tenant, domainId, 60);
    const to2 = 'holddefer-raised@dest.example';
    const raised = await send(tenant, 'lowered.example', to2);
    await until('the second attempt waiting for its reply', async () => (sink.held(to2) ? true : undefined));
    await setExpireAfter(tenant, domainId, 3600);
    sink.release(to2);
    const d = await settled(tenant, raised, 'deferred', 1);
    expect(Number(d.next_attempt_at)).toBeLessThan(d.created_at + 3600_000);
    expect((await env.events(tenant.accountId, raised)).map((e) => e.type)).toContain(
      'email.delivery_delayed',
    );
  });

  it("fixes a message's deadline at its acceptance; a change moves the domain's waiting mail only", async () => {
    const { tenant, domainId } = await tenantWithDomain('fixed.example');
    await setExpireAfter(tenant, domainId, 300);
    await startWorker();
    const sent = await send(tenant, 'fixed.example', 'fixed@dest.example');
    const delivered = await settled(tenant, sent, 'delivered', 1);
    expect(delivered.deadline_at).toBe(delivered.created_at + 300_000);
    // Mail of the domain still waiting (due tomorrow), another domain's, and the delivered message.
    const waiting = messageRow(tenant.accountId, {
      from_email: 'codes@fixed.example',
      from_domain: 'fixed.example',
      created_at: clock.now() - 1000,
      next_attempt_at: clock.now() + 24 * 3600_000,
      deadline_at: clock.now() - 1000 + 300_000,
    });
    const other = messageRow(tenant.accountId, {
      next_attempt_at: clock.now() + 24 * 3600_000,
      deadline_at: clock.now() + 5000,
    });
    await env.insertMessage(waiting);
    await env.insertMessage(other);
    await setExpireAfter(tenant, domainId, 120);
    expect((await message(tenant, waiting.id))!.deadline_at).toBe(waiting.created_at + 120_000);
    expect((await message(tenant, other.id))!.deadline_at).toBe(other.deadline_at);
    expect((await message(tenant, sent))!.deadline_at).toBe(delivered.created_at + 300_000);
    await setExpireAfter(tenant, domainId, null);
    expect((await message(tenant, waiting.id))!.deadline_at).toBeNull();
    // The log shows the deadline the worker applies: the default two days again.
    const res = await call(tenant, 'GET', `/api/emails/${waiting.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain(new Date(waiting.created_at + 2 * 24 * 3600_000).toISOString());
  });

  it('keeps two days when expire_after is null (also after being set and reset)', async () => {
    const { tenant, domainId } = await tenantWithDomain('slow.example');
    await setExpireAfter(tenant, domainId, 60);
    await setExpireAfter(tenant, domainId, null);
    await startWorker();
    const id = await send(tenant, 'slow.example', 'defer-slow@dest.example');
    const createdAt = clock.now();
    await settled(tenant, id, 'deferred', 1);
    // A day later the message is still tried, and deferred again.
    clock.set(createdAt + 24 * 3600_000);
    worker!.wake();
    await settled(tenant, id, 'deferred', 2);
    // Past two days it is not tried again: it fails as expired, without a third attempt.
    clock.set(createdAt + 2 * 24 * 3600_000 + 1);
    worker!.wake();
    await settled(tenant, id, 'failed', 2);
    expect(JSON.parse((await failedEvent(tenant, id))!.data)).toMatchObject({
      reason: 'expired',
      category: 'expired',
      detail: 'not delivered within 48 hours; not tried again',
    });
    expect(await env.attempts(tenant.accountId, id)).toHaveLength(2);
  });
});
