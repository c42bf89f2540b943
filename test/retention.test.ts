// Log retention: the free plan keeps 48 hours of logs, pro and scale keep them; nothing still in the
// queue is deleted.
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { RetentionSweeper } from '../src/retention/retention-sweeper.js';
import { signUpAndVerify } from './helpers/dashboard-signup.js';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

const HOUR = 3_600_000;

describe.each(databaseKinds)('retention on $name', (kind) => {
  let env: TestEnv;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 0));

  beforeEach(async () => {
    clock.set(Date.UTC(2026, 10, 20, 12, 0, 0));
    env = await startTestEnv(kind, { clock });
  });
  afterEach(async () => env.close());

  const send = async (tenant: Tenant, ageHours: number, final = true) => {
    const now = clock.now();
    clock.set(now - ageHours * HOUR);
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/email/send',
      headers: { 'x-api-key': tenant.apiKey },
      payload: validSend,
    });
    clock.set(now);
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { id: string }).id;
    if (final) {
      await env.updateMessage(id, { status: 'delivered', next_attempt_at: null });
    }
    return id;
  };
  const remaining = async () => (await env.messageIds()).sort();
  const sweeper = (batchSize = 500) =>
    new RetentionSweeper(env.services.repos.retention, clock, pino({ level: 'silent' }), {
      intervalMs: 60_000,
      batchSize,
      pauseMs: 0,
    });

  it('deletes exactly the free plan’s messages past 48 hours, with their events, and keeps the queue', async () => {
    const free = await createTenant(env.services, { plan: 'free', domain: 'acme.example' });
    const pro = await createTenant(env.services, { plan: 'pro', domain: 'acme.example' });
    const old = [await send(free, 49), await send(free, 48.01)];
    const young = await send(free, 47.99);
    const stillQueued = await send(free, 72, false);
    const proOld = await send(pro, 24 * 30);

    expect(await sweeper(1).sweep()).toBe(2);
    expect(await remaining()).toEqual([young, stillQueued, proOld].sort());
    for (const id of old) expect(await env.events(free.accountId, id)).toEqual([]);
    // Nothing more to do: a second pass deletes nothing.
    expect(await sweeper().sweep()).toBe(0);
  });

  it('deletes messages with large content in smaller batches, and goes on until all are gone', async () => {
    const free = await createTenant(env.services, { plan: 'free', domain: 'acme.example' });
    const ids = [await send(free, 49), await send(free, 50), await send(free, 51)];
    const kysely = env.services.db.kysely;
    // 10 MiB counted from its parts' number (256 KiB each), 8 MiB of HTML, and a small one: the three
    // pass CONTENT_BYTES_PER_BATCH together, so one transaction cannot take them all.
    await kysely.updateTable('message_bodies').set({ parts: 40 }).where('message_id', '=', ids[0]!).execute();
    await kysely
      .updateTable('message_bodies')
      .set({ html: 'x'.repeat(8 * 1024 * 1024) })
      .where('message_id', '=', ids[1]!)
      .execute();
    const before = clock.now() - 48 * HOUR;
    const first = await env.services.repos.retention.deleteMessages(free.accountId, before, 500);
    expect(first.removed).toBeGreaterThanOrEqual(1);
    expect(first.removed).toBeLessThan(3);
    expect(first.more).toBe(true);
    expect(await sweeper().sweep()).toBe(3 - first.removed);
    expect(await remaining()).toEqual([]);
  });

  it('deletes the free plan’s webhook attempts past 48 hours', async () => {
    const free = await createTenant(env.services, { plan: 'free', domain: 'acme.example' });
    const hook = await env.addWebhook(free.accountId, { url: 'https://hooks.example/x' });
    const attempt = (id: string, ageHours: number) => ({
      id,
      webhook_id: hook.id,
      account_id: free.accountId,
      event_id: `event-${id}`,
      event_type: 'email.delivered',
      attempt: 1,
      started_at: clock.now() - ageHours * HOUR,
      duration_ms: 10,
      success: 1,
      status_code: 200,
      response: 'ok',
      error: null,
    });
    for (const a of [attempt('old', 49), attempt('young', 47)]) await env.addWebhookAttempt(a);
    expect(await sweeper().sweep()).toBe(1);
    const left = await env.webhookAttempts(free.accountId, hook.id);
    expect(left.map((r) => r.id)).toEqual(['young']);
  });

  it('deletes the free plan’s account events (no message) past 48 hours', async () => {
    const free = await createTenant(env.services, { plan: 'free' });
    const pro = await createTenant(env.services, { plan: 'pro' });
    const event = (id: string, accountId: string, ageHours: number) => ({
      id,
      message_id: null,
      account_id: accountId,
      type: 'account.warning' as const,
      created_at: clock.now() - ageHours * HOUR,
      data: '{}',
    });
    await env.addEvents([
      event('old', free.accountId, 49),
      event('young', free.accountId, 47),
      event('pro', pro.accountId, 24 * 30),
    ]);
    expect(await sweeper().sweep()).toBe(1);
    expect(await env.eventIds()).toEqual(['pro', 'young']);
  });

  it('deletes the free plan’s audit entries past 48 hours, and keeps a paid plan’s', async () => {
    const free = await createTenant(env.services, { plan: 'free' });
    const pro = await createTenant(env.services, { plan: 'pro' });
    const entry = (id: string, accountId: string, ageHours: number) => ({
      id,
      account_id: accountId,
      created_at: clock.now() - ageHours * HOUR,
      actor_type: 'operator' as const,
      actor_id: null,
      actor_label: null,
      action: 'api_key.created',
      target: null,
      target_label: null,
      ip: null,
    });
    for (const e of [
      entry('old', free.accountId, 49),
      entry('young', free.accountId, 47),
      entry('pro', pro.accountId, 24 * 30),
    ]) {
      await env.addAuditEntry(e);
    }
    expect(await sweeper().sweep()).toBe(1);
    expect((await env.auditLog(free.accountId)).map((r) => r.id)).toEqual(['young']);
    expect((await env.auditLog(pro.accountId)).map((r) => r.id)).toEqual(['pro']);
  });

  it('applies the shorter retention after a downgrade', async () => {
    const tenant = await createTenant(env.services, { plan: 'pro', domain: 'acme.example' });
    const month = await send(tenant, 24 * 30);
    const day = await send(tenant, 24);
    expect(await sweeper().sweep()).toBe(0);
    await env.setPlan(tenant.accountId, 'free');
    expect(await sweeper().sweep()).toBe(1);
    expect(await remaining()).toEqual([day]);
    expect(month).not.toBe(day);
  });
});

describe.each(databaseKinds)('expired sign-in data and idempotency keys on $name', (kind) => {
  let env: TestEnv;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 0));
  const DAY = 24 * HOUR;
  const PASSWORD = 'correct horse battery';

  beforeEach(async () => {
    clock.set(Date.UTC(2026, 10, 20, 12, 0, 0));
    env = await startTestEnv(kind, { clock });
  });
  afterEach(async () => env.close());

  /** Runs `fn` as if it were `ago` milliseconds earlier. */
  const at = async <T>(ago: number, fn: () => Promise<T>): Promise<T> => {
    const now = clock.now();
    clock.set(now - ago);
    try {
      return await fn();
    } finally {
      clock.set(now);
    }
  };
  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    env.app.inject({ method: 'POST', url, payload, headers });
  const signup = async (email: string) => (await signUpAndVerify(env, email, PASSWORD)).accountId;
  const rows = async () => {
    const db = env.services.db.kysely;
    return {
      sessions: (await db.selectFrom('sessions').select('account_id').execute()).map((r) => r.account_id),
      tokens: (await db.selectFrom('account_tokens').select(['account_id', 'purpose']).execute()).map(
        (r) => `${r.account_id} ${r.purpose}`,
      ),
      idempotency: (await db.selectFrom('idempotency_keys').select('key').execute()).map((r) => r.key).sort(),
      attempts: (await db.selectFrom('attempt_counts').select('expires_at').execute()).length,
      devices: (await db.selectFrom('login_devices').select('account_id').execute())
        .map((r) => r.account_id)
        .sort(),
    };
  };

  it('deletes expired sessions and remembered browsers, used and expired tokens, idempotency keys past 24 hours and ended attempt counts', async () => {
    // More than a year ago: Carol signed up with her link; her browser is remembered for a year.
    const carol = await at(366 * DAY, () => signup('carol@example.org'));
    // A month ago: Alice signed up with her link (a session that has expired since, a link used), asked
    // for a password reset she never used, and somebody failed to log in as her.
    const alice = await at(31 * DAY, () => signup('alice@example.org'));
    await at(31 * DAY, () => post('/api/auth/password-reset', { email: 'alice@example.org' }));
    // The link is made after the answer, as of the request.
    await env.services.deferredWork.settled();
    await at(31 * DAY, () => post('/api/auth/login', { email: 'alice@example.org', password: 'nope' }));
    // Today: Bob signs up with his link, and asks for a password reset he has not used.
    const bob = await signup('bob@example.org');
    expect((await post('/api/auth/password-reset', { email: 'bob@example.org' })).statusCode).toBe(202);
    await env.services.deferredWork.settled();
    // Idempotency keys of 25 and of 23 hours ago.
    const tenant = await createTenant(env.services, { plan: 'pro', domain: 'acme.example' });
    const send = (key: string) =>
      post('/api/email/send', validSend, { 'x-api-key': tenant.apiKey, 'idempotency-key': key });
    await at(25 * HOUR, () => send('old'));
    const young = await at(23 * HOUR, () => send('young'));

    const before = await rows();
    expect(before.sessions.sort()).toEqual([alice, bob, carol].sort());
    expect(before.devices).toEqual([alice, bob, carol].sort());
    expect(before.tokens).toHaveLength(5);
    expect(before.idempotency).toEqual(['old', 'young']);
    expect(before.attempts).toBeGreaterThan(0);
    const liveAttempts = (
      await env.services.db.kysely
        .selectFrom('attempt_counts')
        .select('key')
        .where('expires_at', '>', clock.now())
        .execute()
    ).length;

    const sweeper = new RetentionSweeper(env.services.repos.retention, clock, pino({ level: 'silent' }), {
      intervalMs: 60_000,
      batchSize: 1,
      pauseMs: 0,
    });
    const deleted = await sweeper.sweep();
    const after = await rows();
    expect(after).toEqual({
      sessions: [bob],
      tokens: [`${bob} reset_password`],
      idempotency: ['young'],
      attempts: liveAttempts,
      devices: [alice, bob].sort(),
    });
    expect(deleted).toBe(2 + 1 + 4 + 1 + (before.attempts - liveAttempts));
    expect(await sweeper.sweep()).toBe(0);
    // The key still in its 24 hours replays the first response.
    expect((await send('young')).json()).toEqual(young.json());
  });

  it('deletes reputation counts older than 90 days, keeping the days a window or the chart can read', async () => {
    const db = env.services.db.kysely;
    const day = (ago: number) => new Date(clock.now() - ago * DAY).toISOString().slice(0, 10);
    const row = (ago: number, domain: string) => ({
      account_id: 'acct',
      domain,
      day: day(ago),
      sent: 1,
      delivered: 1,
      final: 1,
    });
    await db
      .insertInto('reputation_counts')
      .values([
        row(0, 'a.example'),
        row(90, 'a.example'),
        row(91, 'a.example'),
        row(91, 'b.example'),
        row(400, 'a.example'),
      ])
      .execute();
    const sweeper = new RetentionSweeper(env.services.repos.retention, clock, pino({ level: 'silent' }), {
      intervalMs: 60_000,
      batchSize: 2,
      pauseMs: 0,
    });
    expect(await sweeper.sweep()).toBeGreaterThanOrEqual(3);
    const left = await db.selectFrom('reputation_counts').select('day').orderBy('day').execute();
    expect(left.map((r) => r.day)).toEqual([day(90), day(0)]);
  });

  it('deletes sender blocks older than a week, destination pauses a day past their end and MTA-STS policies a day past their expiry', async () => {
    const db = env.services.db.kysely;
    const now = clock.now();
    const hit = (destination: string, account: string, ago: number) => ({
      destination,
      source_ip: '192.0.2.1',
      account_id: account,
      hit_at: now - ago,
      replies: 1,
    });
    await db
      .insertInto('sender_block_hits')
      .values([
        hit('gmail.example', 'a', 0),
        hit('gmail.example', 'b', 7 * DAY - 1000),
        hit('gmail.example', 'c', 7 * DAY + 1000),
        hit('outlook.example', 'a', 8 * DAY),
        hit('outlook.example', 'b', 400 * DAY),
      ])
      .execute();
    const pause = (destination: string, endedAgo: number) => ({
      destination,
      source_ip: '192.0.2.1',
      paused_until: now - endedAgo,
      paused_at: now - endedAgo - HOUR,
      accounts: 2,
      reply: '550 5.7.1 blocked using zen.spamhaus.org',
    });
    await db
      .insertInto('destination_blocks')
      .values([
        pause('running.example', -HOUR),
        pause('ended.example', HOUR),
        pause('yesterday.example', DAY - 1000),
        pause('old.example', DAY + 1000),
        pause('older.example', 30 * DAY),
      ])
      .execute();
    const sweeper = new RetentionSweeper(env.services.repos.retention, clock, pino({ level: 'silent' }), {
      intervalMs: 60_000,
      batchSize: 2,
      pauseMs: 0,
    });
    const policy = (domain: string, expiredAgo: number) => ({
      domain,
      policy_id: '20260101',
      mode: 'enforce' as const,
      mx: '["mx.example"]',
      max_age: 86_400,
      fetched_at: now - expiredAgo - DAY,
      expires_at: now - expiredAgo,
      policy: 'version: STSv1\r\nmode: enforce\r\nmx: mx.example\r\nmax_age: 86400\r\n',
    });
    await db
      .insertInto('mta_sts_policies')
      .values([
        policy('valid.example', -HOUR),
        policy('lapsed.example', DAY - 1000),
        policy('stale.example', DAY + 1000),
      ])
      .execute();
    expect(await sweeper.sweep()).toBe(3 + 2 + 1);
    const hits = await db
      .selectFrom('sender_block_hits')
      .select(['destination', 'account_id'])
      .orderBy('destination')
      .orderBy('account_id')
      .execute();
    expect(hits).toEqual([
      { destination: 'gmail.example', account_id: 'a' },
      { destination: 'gmail.example', account_id: 'b' },
    ]);
    const pauses = await db
      .selectFrom('destination_blocks')
      .select('destination')
      .orderBy('destination')
      .execute();
    expect(pauses.map((r) => r.destination)).toEqual([
      'ended.example',
      'running.example',
      'yesterday.example',
    ]);
    const policies = await db.selectFrom('mta_sts_policies').select('domain').orderBy('domain').execute();
    expect(policies.map((r) => r.domain)).toEqual(['lapsed.example', 'valid.example']);
    expect(await sweeper.sweep()).toBe(0);
  });
});
