// GET /api/account/activity on SQLite and PostgreSQL: exactly N days, oldest first, the last one today
// (UTC, by the service's clock), zeros filled, only the caller's account; N within 1..90, default 30,
// anything else 400 validation_error; no key, 401.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { NO_COUNTS } from '../src/reputation/counts.js';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, type Tenant, type TestEnv } from './helpers/services.js';

interface Activity {
  days: {
    date: string;
    sent: number;
    delivered: number;
    bounced: number;
    complained: number;
    final: number;
    bad_bounces: number;
    spam_complaints: number;
  }[];
}

const TEST_DOMAIN = 'test.txmail.example';
const NO_WINDOW = { final: 0, bad_bounces: 0, spam_complaints: 0 };
/** The 24th: the test domain's 2 delivered count in the activity, not in final. */
const TODAY = {
  date: '2026-11-24',
  sent: 11,
  delivered: 9,
  bounced: 1,
  complained: 1,
  final: 8,
  bad_bounces: 1,
  spam_complaints: 1,
};

describe.each(databaseKinds)('GET /api/account/activity on $name', (kind) => {
  let env: TestEnv;
  let tenant: Tenant;
  let other: Tenant;
  // Just before midnight UTC: "today" is the 24th for a few more seconds.
  const clock = new ManualClock(Date.parse('2026-11-24T23:59:58Z'));

  beforeAll(async () => {
    env = await startTestEnv(kind, { clock, env: { TXMAIL_TEST_DOMAIN: TEST_DOMAIN } });
    tenant = await createTenant(env.services);
    other = await createTenant(env.services);
    const row = (accountId: string, day: string, counts: Partial<typeof NO_COUNTS>) => ({
      ...NO_COUNTS,
      accountId,
      day,
      domain: 'acme.example',
      ...counts,
    });
    await env.addReputationCounts([
      row(tenant.accountId, '2026-11-24', {
        sent: 9,
        delivered: 7,
        bounced: 1,
        complained: 1,
        final: 8,
        badBounces: 1,
        spamComplaints: 1,
      }),
      // The service's own mail: in the activity, not in its window columns.
      { ...row(tenant.accountId, '2026-11-24', { sent: 2, delivered: 2, final: 2 }), domain: TEST_DOMAIN },
      row(tenant.accountId, '2026-11-20', { sent: 3, delivered: 3 }),
      // Outside a 7-day view, inside a 30-day one.
      row(tenant.accountId, '2026-11-01', { sent: 5, delivered: 4, bounced: 1 }),
      // Tomorrow (another process's clock ahead): never shown as today.
      row(tenant.accountId, '2026-11-25', { sent: 100 }),
      row(other.accountId, '2026-11-24', { sent: 50, delivered: 50 }),
    ]);
  });
  afterAll(async () => {
    await env.close();
  });

  const get = (query: string, key: string | null = tenant.apiKey) =>
    env.app.inject({
      method: 'GET',
      url: `/api/account/activity${query}`,
      headers: key ? { 'x-api-key': key } : {},
    });

  it('answers 30 days by default, oldest first, the last today, zeros filled', async () => {
    const res = await get('');
    expect(res.statusCode, res.body).toBe(200);
    const { days } = res.json() as Activity;
    expect(days).toHaveLength(30);
    expect(days[0]!.date).toBe('2026-10-26');
    expect(days.at(-1)).toEqual(TODAY);
    expect(days.find((d) => d.date === '2026-11-01')).toEqual({
      date: '2026-11-01',
      sent: 5,
      delivered: 4,
      bounced: 1,
      complained: 0,
      ...NO_WINDOW,
    });
    expect(days.find((d) => d.date === '2026-11-21')).toEqual({
      date: '2026-11-21',
      sent: 0,
      delivered: 0,
      bounced: 0,
      complained: 0,
      ...NO_WINDOW,
    });
    // Every day once, consecutive.
    const dates = days.map((d) => Date.parse(`${d.date}T00:00:00Z`));
    expect(dates.every((t, i) => i === 0 || t - dates[i - 1]! === 86_400_000)).toBe(true);
  });

  it('answers exactly N days for N in 1..90', async () => {
    const seven = (await get('?days=7')).json() as Activity;
    expect(seven.days.map((d) => d.date)).toEqual([
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
      '2026-11-23',
      '2026-11-24',
    ]);
    expect(seven.days.reduce((n, d) => n + d.sent, 0)).toBe(14);
    expect(((await get('?days=1')).json() as Activity).days).toEqual([TODAY]);
    expect(((await get('?days=90')).json() as Activity).days).toHaveLength(90);
  });

  it('follows the clock into the next UTC day', async () => {
    clock.set(Date.parse('2026-11-25T00:00:01Z'));
    try {
      const days = ((await get('?days=2')).json() as Activity).days;
      expect(days.map((d) => [d.date, d.sent])).toEqual([
        ['2026-11-24', 11],
        ['2026-11-25', 100],
      ]);
    } finally {
      clock.set(Date.parse('2026-11-24T23:59:58Z'));
    }
  });

  it("shows only the caller's account", async () => {
    const days = ((await get('?days=1', other.apiKey)).json() as Activity).days;
    expect(days).toEqual([
      { date: '2026-11-24', sent: 50, delivered: 50, bounced: 0, complained: 0, ...NO_WINDOW },
    ]);
  });

  it('refuses a bad N with 400 validation_error', async () => {
    for (const q of [
      '?days=0',
      '?days=91',
      '?days=1000',
      '?days=-1',
      '?days=abc',
      '?days=',
      '?days=7.5',
      '?x=1',
    ]) {
      const res = await get(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.body, q).toMatch(/^validation_error: /);
    }
  });

  it('needs a key or a session', async () => {
    expect((await get('', null)).statusCode).toBe(401);
  });
});
