// The test route's limits: a daily allowance of test sends per plan, counted in the accept transaction
// (exact under concurrency, on every writer: SQLite on the event loop and on the accept thread,
// PostgreSQL), and at most 64 KiB of HTML stored per test message.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { RetentionSweeper } from '../src/retention/retention-sweeper.js';
import { createServices } from '../src/services.js';
import { databaseKinds, type DatabaseKind } from './helpers/databases.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

const KIB = 1024;

/** Every writer of the accept transaction: SQLite with and without its accept thread, PostgreSQL. */
const writers: { name: string; kind: DatabaseKind; acceptThread: boolean }[] = databaseKinds.flatMap(
  (kind) =>
    kind.name === 'sqlite'
      ? [
          { name: 'sqlite', kind, acceptThread: false },
          { name: 'sqlite with the accept thread', kind, acceptThread: true },
        ]
      : [{ name: kind.name, kind, acceptThread: false }],
);

describe.each(writers)('test sends on $name', ({ kind, acceptThread }) => {
  let env: TestEnv;
  const clock = new ManualClock();
  beforeAll(async () => {
    env = await startTestEnv(kind, { clock, acceptThread });
  });
  afterAll(() => env.close());

  const testSend = (tenant: Tenant, payload: object = validSend, app = env.app, headers = {}) =>
    app.inject({
      method: 'POST',
      url: '/api/email/send/test',
      headers: { 'x-api-key': tenant.apiKey, ...headers },
      payload,
    });
  const stored = async (tenant: Tenant) =>
    (await env.messagesOf(tenant.accountId)).filter((m) => m.status === 'test').length;
  const account = async (tenant: Tenant) =>
    (
      await env.app.inject({ method: 'GET', url: '/api/account', headers: { 'x-api-key': tenant.apiKey } })
    ).json() as {
      test_sends: { day: string; sent: number; limit: number; remaining: number; resets_at: string };
      limits: { test_sends_per_day: number };
      usage: { sent: number };
    };

  it('answers the 101st test send of a free account in a day with 429 until the next UTC day', async () => {
    clock.set(Date.UTC(2026, 10, 22, 23, 58, 30));
    const tenant = await createTenant(env.services, { plan: 'free' });
    const first = await Promise.all(Array.from({ length: 100 }, () => testSend(tenant)));
    expect(first.map((r) => r.statusCode)).toEqual(Array(100).fill(200));
    const over = await testSend(tenant);
    expect(over.statusCode).toBe(429);
    expect(over.body).toBe(
      'test_quota_exceeded: the free plan allows 100 test sends per day (UTC) and they are used up; the allowance refills at 2026-11-23T00:00:00.000Z',
    );
    expect(over.headers['retry-after']).toBe('90');
    expect((await account(tenant)).test_sends).toEqual({
      day: '2026-11-22',
      sent: 100,
      limit: 100,
      remaining: 0,
      resets_at: '2026-11-23T00:00:00.000Z',
    });
    // Test sends never count toward the monthly cap.
    expect((await account(tenant)).usage.sent).toBe(0);

    clock.set(Date.UTC(2026, 10, 22, 23, 59, 59, 999));
    expect((await testSend(tenant)).statusCode).toBe(429);
    clock.set(Date.UTC(2026, 10, 23, 0, 0, 0));
    expect((await testSend(tenant)).statusCode).toBe(200);
    expect((await account(tenant)).test_sends).toMatchObject({ day: '2026-11-23', sent: 1, remaining: 99 });
    expect(await stored(tenant)).toBe(101);
  });

  it('stores exactly 100 of 200 concurrent test sends of a free account', async () => {
    clock.set(Date.UTC(2026, 10, 24, 12, 0, 0));
    const tenant = await createTenant(env.services, { plan: 'free' });
    const results = await Promise.all(Array.from({ length: 200 }, () => testSend(tenant)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(100);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(100);
    expect(await stored(tenant)).toBe(100);
    expect((await account(tenant)).test_sends.sent).toBe(100);
  });

  it('gives each plan its own allowance and each account its own count', async () => {
    clock.set(Date.UTC(2026, 10, 25, 12, 0, 0));
    const pro = await createTenant(env.services, { plan: 'pro' });
    const scale = await createTenant(env.services, { plan: 'scale' });
    const free = await createTenant(env.services, { plan: 'free' });
    expect((await account(pro)).limits.test_sends_per_day).toBe(1_000);
    expect((await account(scale)).limits.test_sends_per_day).toBe(10_000);
    await env.setTestUsage(pro.accountId, '2026-11-25', 999);
    // One batch with three accounts: the pro account's last one, then its refusal; the free one untouched.
    const results = await Promise.all([testSend(pro), testSend(pro), testSend(free), testSend(scale)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 429]);
    expect((await account(pro)).test_sends.sent).toBe(1_000);
    expect((await account(free)).test_sends.sent).toBe(1);
    expect((await account(scale)).test_sends.sent).toBe(1);
  });

  it('counts a test send repeated with its Idempotency-Key once, and a refused one not at all', async () => {
    clock.set(Date.UTC(2026, 10, 26, 12, 0, 0));
    const tenant = await createTenant(env.services, { plan: 'free' });
    const key = { 'idempotency-key': 'order-42' };
    const first = await testSend(tenant, validSend, env.app, key);
    const again = await testSend(tenant, validSend, env.app, key);
    expect(again.json()).toEqual(first.json());
    expect((await account(tenant)).test_sends.sent).toBe(1);
    await env.setTestUsage(tenant.accountId, '2026-11-26', 100);
    const refused = await testSend(tenant, validSend, env.app, { 'idempotency-key': 'order-43' });
    expect(refused.statusCode).toBe(429);
    expect((await account(tenant)).test_sends.sent).toBe(100);
    // The refused send gave its key back: once there is room, the same request is stored as a new one.
    await env.setTestUsage(tenant.accountId, '2026-11-26', 99);
    const retried = await testSend(tenant, validSend, env.app, { 'idempotency-key': 'order-43' });
    expect(retried.statusCode).toBe(200);
    expect(await stored(tenant)).toBe(2);
  });

  it('stores at most 64 KiB of a 1 MiB test message, with a note, and says so in the detail', async () => {
    clock.set(Date.UTC(2026, 10, 27, 12, 0, 0));
    const tenant = await createTenant(env.services, { plan: 'free', domain: 'acme.example' });
    const html = '<p>' + 'é'.repeat(512 * KIB - 4) + '</p>' + '\n';
    expect(Buffer.byteLength(html)).toBe(1024 * KIB);
    const res = await testSend(tenant, { ...validSend, message: html });
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json() as { id: string };
    const row = (await env.message(tenant.accountId, id))!;
    const note = `<!-- txmail: ${(1024 * KIB - (64 * KIB - 1)).toLocaleString('en-US')} more bytes not stored (test sends keep at most 64 KiB) -->`;
    expect(row.html.endsWith(note)).toBe(true);
    expect(Buffer.byteLength(row.html)).toBeLessThanOrEqual(64 * KIB + Buffer.byteLength(note));
    expect(html.startsWith(row.html.slice(0, -note.length))).toBe(true);

    const detail = (
      await env.app.inject({
        method: 'GET',
        url: `/api/emails/${id}`,
        headers: { 'x-api-key': tenant.apiKey },
      })
    ).json() as { message: string; html_truncated: boolean; html_bytes: number; events: { data: object }[] };
    expect(detail).toMatchObject({ message: row.html, html_truncated: true, html_bytes: 1024 * KIB });
    expect(detail.events[0]!.data).toMatchObject({ html_truncated: true, html_bytes: 1024 * KIB });

    // A real send keeps its HTML whole.
    const real = await env.app.inject({
      method: 'POST',
      url: '/api/email/send',
      headers: { 'x-api-key': tenant.apiKey },
      payload: { ...validSend, message: html },
    });
    expect(real.statusCode, real.body).toBe(200);
    const realDetail = (
      await env.app.inject({
        method: 'GET',
        url: `/api/emails/${(real.json() as { id: string }).id}`,
        headers: { 'x-api-key': tenant.apiKey },
      })
    ).json() as { message: string; html_truncated: boolean; html_bytes: number };
    expect(realDetail).toMatchObject({ message: html, html_truncated: false, html_bytes: 1024 * KIB });
  });

  it('deletes the counters of past days, keeping yesterday and today', async () => {
    clock.set(Date.UTC(2026, 11, 10, 12, 0, 0));
    const tenant = await createTenant(env.services, { plan: 'free' });
    for (const day of ['2026-12-07', '2026-12-08', '2026-12-09', '2026-12-10']) {
      await env.setTestUsage(tenant.accountId, day, 5);
    }
    const sweeper = new RetentionSweeper(env.services.repos.retention, clock, pino({ level: 'silent' }), {
      intervalMs: 60_000,
      batchSize: 1,
      pauseMs: 0,
    });
    await sweeper.sweep();
    const days = await env.testUsage(tenant.accountId);
    expect(days.map((d) => d.day)).toEqual(['2026-12-09', '2026-12-10']);
  });

  it.runIf(kind.name === 'postgres')('counts exactly across two API processes racing', async () => {
    clock.set(Date.UTC(2026, 10, 28, 12, 0, 0));
    const tenant = await createTenant(env.services, { plan: 'free' });
    const other = await createServices(env.services.config, {
      clock,
      logger: pino({ level: 'silent' }),
      migrate: false,
    });
    const otherApp = other.http();
    try {
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => testSend(tenant, validSend, i % 2 === 0 ? env.app : otherApp)),
      );
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(100);
      expect(await stored(tenant)).toBe(100);
    } finally {
      await otherApp.close();
      await other.close();
    }
  });
});
