// The reputation counts' storage on SQLite and PostgreSQL: deltas summed per (account, day, domain) by
// both writers (the Kysely upsert and SQLite's prepared statement), the windows the judge weighs (test
// domain left out, from the window's first day), the activity per day with every day present, and a
// window reset that keeps the activity.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReputationCounts, prepareReputationCounts } from '../src/db/reputation-repo.js';
import { NO_COUNTS, windowStart, type ReputationDelta } from '../src/reputation/counts.js';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, type TestEnv } from './helpers/services.js';

/** TXMAIL_TEST_DOMAIN of the test environment (test.<hostname>). */
const TEST_DOMAIN = 'test.mta.txmail.test';

const delta = (
  accountId: string,
  day: string,
  domain: string,
  counts: Partial<ReputationDelta>,
): ReputationDelta => ({ ...NO_COUNTS, accountId, day, domain, ...counts });

describe.each(databaseKinds)('reputation counts on $name', (kind) => {
  let env: TestEnv;
  let a: string;
  let b: string;
  beforeAll(async () => {
    env = await startTestEnv(kind);
    a = (await createTenant(env.services)).accountId;
    b = (await createTenant(env.services)).accountId;
    const add = (deltas: ReputationDelta[]) => addReputationCounts(env.services.db.kysely, deltas);
    await add([
      delta(a, '2026-11-20', 'acme.example', {
        sent: 10,
        delivered: 8,
        final: 10,
        bounced: 2,
        badBounces: 1,
      }),
      // Same row twice in one batch: summed before the one upsert.
      delta(a, '2026-11-22', 'acme.example', { sent: 5, final: 5, delivered: 5 }),
      delta(a, '2026-11-22', 'acme.example', { complained: 2, spamComplaints: 1 }),
      delta(a, '2026-11-22', 'other.example', { sent: 3, final: 3, bounced: 3, badBounces: 3 }),
      // The service's own mail: activity only.
      delta(a, '2026-11-22', TEST_DOMAIN, { sent: 7, final: 7, delivered: 7 }),
      delta(b, '2026-11-18', 'b.example', { sent: 4, final: 4, delivered: 4 }),
    ]);
    // Added to an existing row.
    await add([delta(a, '2026-11-24', 'acme.example', { sent: 1, final: 1, bounced: 1, badBounces: 1 })]);
    await add([delta(a, '2026-11-24', 'acme.example', { sent: 1, final: 1, delivered: 1 })]);
    // SQLite's prepared path adds to the same rows.
    const sqlite = env.services.db.sqlite;
    if (sqlite) {
      const write = prepareReputationCounts(sqlite);
      await env.services.db.kysely
        .connection()
        .execute(async () =>
          write([
            delta(a, '2026-11-24', 'acme.example', { complained: 1 }),
            delta(a, '2026-11-24', 'acme.example', { complained: 1 }),
          ]),
        );
    } else {
      await add([delta(a, '2026-11-24', 'acme.example', { complained: 2 })]);
    }
  });
  afterAll(async () => {
    await env.close();
  });
  const repo = () => env.services.repos.reputation;

  it('sums the window from its first day, leaving the test domain out', async () => {
    expect(await repo().window(a, '2026-11-20')).toEqual({ messages: 20, bounced: 5, complained: 1 });
    expect(await repo().window(a, '2026-11-21')).toEqual({ messages: 10, bounced: 4, complained: 1 });
    expect(await repo().window(a, '2026-11-25')).toEqual({ messages: 0, bounced: 0, complained: 0 });
    expect(await repo().windowByDomain(a, '2026-11-21')).toEqual([
      { domain: 'acme.example', messages: 7, bounced: 1, complained: 1 },
      { domain: 'other.example', messages: 3, bounced: 3, complained: 0 },
    ]);
  });

  it('lists every account with anything in its window', async () => {
    expect(await repo().windows('2026-11-18')).toEqual(
      [
        { accountId: a, messages: 20, bounced: 5, complained: 1 },
        { accountId: b, messages: 4, bounced: 0, complained: 0 },
      ].sort((x, y) => (x.accountId < y.accountId ? -1 : 1)),
    );
    expect(await repo().windows('2026-11-19')).toEqual([
      { accountId: a, messages: 20, bounced: 5, complained: 1 },
    ]);
  });

  it('gives the activity of every day, zeros filled, test domain included but not in the window columns', async () => {
    const days = await repo().activity(a, '2026-11-19', '2026-11-24');
    const none = { final: 0, bad_bounces: 0, spam_complaints: 0 };
    expect(days).toEqual([
      { date: '2026-11-19', sent: 0, delivered: 0, bounced: 0, complained: 0, ...none },
      {
        date: '2026-11-20',
        sent: 10,
        delivered: 8,
        bounced: 2,
        complained: 0,
        final: 10,
        bad_bounces: 1,
        spam_complaints: 0,
      },
      { date: '2026-11-21', sent: 0, delivered: 0, bounced: 0, complained: 0, ...none },
      // The test domain's 7 are sent and delivered, but not final in the window's sense.
      {
        date: '2026-11-22',
        sent: 15,
        delivered: 12,
        bounced: 3,
        complained: 2,
        final: 8,
        bad_bounces: 3,
        spam_complaints: 1,
      },
      { date: '2026-11-23', sent: 0, delivered: 0, bounced: 0, complained: 0, ...none },
      {
        date: '2026-11-24',
        sent: 2,
        delivered: 1,
        bounced: 1,
        complained: 2,
        final: 2,
        bad_bounces: 1,
        spam_complaints: 0,
      },
    ]);
    // Across a month's end.
    const across = await repo().activity(b, '2026-10-30', '2026-11-02');
    expect(across.map((d) => d.date)).toEqual(['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02']);
  });

  it('a reset zeroes the window and keeps the activity', async () => {
    const before = await repo().activity(a, '2026-11-19', '2026-11-24');
    await repo().resetWindow(a);
    expect(await repo().window(a, '2026-11-01')).toEqual({ messages: 0, bounced: 0, complained: 0 });
    expect(await repo().windows('2026-11-01')).toEqual([
      { accountId: b, messages: 4, bounced: 0, complained: 0 },
    ]);
    // The activity is kept; its window columns are zeroed with the window.
    expect(await repo().activity(a, '2026-11-19', '2026-11-24')).toEqual(
      before.map((d) => ({ ...d, final: 0, bad_bounces: 0, spam_complaints: 0 })),
    );
    expect(before.some((d) => d.final > 0)).toBe(true);
  });
});

describe('the window start', () => {
  it('is windowDays − 1 days before today, in UTC', () => {
    const now = Date.parse('2026-11-24T23:59:59Z');
    expect(windowStart(now, 7)).toBe('2026-11-18');
    expect(windowStart(now, 1)).toBe('2026-11-24');
    expect(windowStart(Date.parse('2026-03-01T00:00:00Z'), 2)).toBe('2026-02-28');
  });
});
