// The monthly cap (DESIGN.md §9): exact under concurrency, across API processes, and month by month.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { createServices } from '../src/services.js';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

describe.each(databaseKinds)('monthly quota on $name', (kind) => {
  let env: TestEnv;
  const clock = new ManualClock(Date.UTC(2026, 10, 30, 23, 59, 0));
  beforeAll(async () => {
    env = await startTestEnv(kind, { clock });
  });
  afterAll(() => env.close());

  const useUp = async (tenant: Tenant, sent: number) =>
    env.services.db.kysely
      .insertInto('usage')
      .values({ account_id: tenant.accountId, month: '2026-11', sent })
      .execute();
  const send = (tenant: Tenant, app = env.app) =>
    app.inject({
      method: 'POST',
      url: '/api/email/send',
      headers: { 'x-api-key': tenant.apiKey },
      payload: validSend,
    });

  it('refuses past the cap until the next calendar month (UTC), with Retry-After to its start', async () => {
    clock.set(Date.UTC(2026, 10, 30, 23, 59, 0));
    const tenant = await createTenant(env.services, { plan: 'free', domain: 'acme.example' });
    await useUp(tenant, 999);
    expect((await send(tenant)).statusCode).toBe(200); // the 1,000th
    const over = await send(tenant); // the 1,001st
    expect(over.statusCode).toBe(429);
    expect(over.body).toBe(
      'monthly_quota_exceeded: the free plan allows 1000 emails per month and they are used up; the quota refills at 2026-12-01T00:00:00.000Z',
    );
    expect(over.headers['retry-after']).toBe('60');
    clock.set(Date.UTC(2026, 11, 1, 0, 0, 0));
    expect((await send(tenant)).statusCode).toBe(200);
    const usage = await env.services.db.kysely
      .selectFrom('usage')
      .select(['month', 'sent'])
      .where('account_id', '=', tenant.accountId)
      .orderBy('month')
      .execute();
    expect(usage.map((u) => [u.month, Number(u.sent)])).toEqual([
      ['2026-11', 1000],
      ['2026-12', 1],
    ]);
  });

  it('accepts exactly 100 of 200 parallel sends against 100 remaining', async () => {
    clock.set(Date.UTC(2026, 10, 15));
    const tenant = await createTenant(env.services, { plan: 'free', domain: 'acme.example' });
    await useUp(tenant, 900);
    const results = await Promise.all(Array.from({ length: 200 }, () => send(tenant)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(100);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(100);
    const stored = await env.services.db.kysely
      .selectFrom('messages')
      .select('id')
      .where('account_id', '=', tenant.accountId)
      .execute();
    expect(stored).toHaveLength(100);
  });

  it.runIf(kind.name === 'postgres')('counts exactly across two API processes racing', async () => {
    clock.set(Date.UTC(2026, 10, 15));
    const tenant = await createTenant(env.services, { plan: 'free', domain: 'acme.example' });
    await useUp(tenant, 900);
    const other = await createServices(env.services.config, {
      clock,
      logger: pino({ level: 'silent' }),
      migrate: false,
    });
    const otherApp = other.http();
    try {
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => send(tenant, i % 2 === 0 ? env.app : otherApp)),
      );
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(100);
      const usage = await env.services.repos.accounts.monthUsage(tenant.accountId, '2026-11');
      expect(usage).toBe(1000);
    } finally {
      await otherApp.close();
      await other.close();
    }
  });
});
