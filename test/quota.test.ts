// The monthly cap (docs/design.md §9): exact under concurrency, across API processes, and month by month.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { createServices } from '../src/services.js';
import { databaseKinds } from './helpers/databases.js';
import { until } from './helpers/wait.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

describe.each(databaseKinds)('monthly quota on $name', (kind) => {
  let env: TestEnv;
  const clock = new ManualClock(Date.UTC(2026, 10, 30, 23, 59, 0));
  beforeAll(async () => {
    env = await startTestEnv(kind, { clock });
  });
  afterAll(() => env.close());

  const useUp = async (tenant: Tenant, sent: number) => env.setMonthUsage(tenant.accountId, '2026-11', sent);
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
    const usage = await env.usage(tenant.accountId);
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
    // Not the quota warning email that follows.
    const stored = (await env.messagesOf(tenant.accountId)).filter((m) => m.subject === validSend.subject);
    expect(stored).toHaveLength(100);
  });

  it('stores each threshold notice once when parallel sends cross it together', async () => {
    clock.set(Date.UTC(2026, 10, 16));
    const tenant = await createTenant(env.services, { plan: 'free', domain: 'acme.example' });
    const notices = async () => (await env.notices(tenant.accountId)).map((n) => n.kind);
    await useUp(tenant, 780);
    const first = await Promise.all(Array.from({ length: 40 }, () => send(tenant))); // 781…820
    expect(first.every((r) => r.statusCode === 200)).toBe(true);
    expect(await notices()).toEqual(['quota_80']);
    await env.setMonthUsage(tenant.accountId, '2026-11', 980);
    const second = await Promise.all(Array.from({ length: 40 }, () => send(tenant))); // 981…1000, then 20 refused
    expect(second.filter((r) => r.statusCode === 200)).toHaveLength(20);
    expect(await notices()).toEqual(['quota_100', 'quota_80']);
  });

  it('warns at 80 % and at 100 % once each per month, with a notice and an email to the signup address', async () => {
    clock.set(Date.UTC(2026, 10, 20));
    const tenant = await createTenant(env.services, { plan: 'free', domain: 'acme.example' });
    await useUp(tenant, 798);
    const notices = async () => env.notices(tenant.accountId);
    const mails = async () =>
      (await env.messagesOf(tenant.accountId))
        .filter((m) => m.subject.startsWith('txmail:'))
        .sort((a, b) => (a.subject < b.subject ? -1 : a.subject > b.subject ? 1 : 0))
        .map(({ subject, from_email, to_email }) => ({ subject, from_email, to_email }));
    expect((await send(tenant)).statusCode).toBe(200); // 799
    expect(await notices()).toEqual([]);
    expect((await send(tenant)).statusCode).toBe(200); // 800 = 80 %
    expect((await send(tenant)).statusCode).toBe(200); // 801
    expect((await notices()).map((n) => n.kind)).toEqual(['quota_80']);
    await env.setMonthUsage(tenant.accountId, '2026-11', 999);
    expect((await send(tenant)).statusCode).toBe(200); // 1000 = 100 %
    expect((await send(tenant)).statusCode).toBe(429);
    expect((await notices()).map((n) => n.kind)).toEqual(['quota_100', 'quota_80']);
    const sent = await until('both emails queued', async () => {
      const m = await mails();
      return m.length === 2 ? m : undefined;
    });
    expect(sent).toEqual([
      {
        subject: "txmail: you have used 80 % of this month's emails (2026-11)",
        from_email: expect.stringMatching(/@/),
        to_email: tenant.email,
      },
      {
        subject: "txmail: you have used all of this month's emails (2026-11)",
        from_email: expect.stringMatching(/@/),
        to_email: tenant.email,
      },
    ]);
    // Next month counts again from zero, and warns again.
    clock.set(Date.UTC(2026, 11, 3));
    await env.setMonthUsage(tenant.accountId, '2026-12', 799);
    expect((await send(tenant)).statusCode).toBe(200);
    expect((await notices()).map((n) => n.kind)).toEqual(['quota_100', 'quota_80', 'quota_80']);
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
      const usage = await env.monthUsage(tenant.accountId, '2026-11');
      expect(usage).toBe(1000);
      // Only the accepted sends are stored (beside them: the 100 % warning to the signup address): each
      // batch stores its sends before it counts them, and takes out again the ones the cap refuses
      // (db/postgres/accept.ts).
      const accepted = results.filter((r) => r.statusCode === 200).map((r) => r.json<{ id: string }>().id);
      const sends = (await env.messagesOf(tenant.accountId)).filter(
        (m) => m.to_email === 'jane@recipient.example',
      );
      expect(sends.map((m) => m.id).sort()).toEqual(accepted.sort());
    } finally {
      await otherApp.close();
      await other.close();
    }
  });
});
