// The delivery queue's claim on SQLite compiled once per number of slots (db/sqlite/claim-text.ts): for
// any claim, its text and parameters are exactly what compiling the claim afresh gives.
import SQLite from 'better-sqlite3';
import fc from 'fast-check';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { claimFairSqlite } from '../../src/db/fair-claim.js';
import { DELIVERY_CAPS, DELIVERY_QUEUE } from '../../src/db/queue-repo.js';
import type { Database } from '../../src/db/schema.js';
import { sqliteClaimTexts } from '../../src/db/sqlite/claim-text.js';

describe('the SQLite claim compiled once per number of slots', () => {
  const database = new SQLite(':memory:');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  afterAll(() => kysely.destroy());

  it('gives the text and parameters of a fresh compile, for any owner, time and lease', () => {
    const texts = sqliteClaimTexts(kysely, DELIVERY_QUEUE, DELIVERY_CAPS);
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 2 ** 48 }),
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: 1, max: 64 }),
        (owner, now, leaseFor, limit) => {
          const fresh = claimFairSqlite(
            DELIVERY_QUEUE,
            owner,
            now,
            now + leaseFor,
            limit,
            DELIVERY_CAPS,
          ).compile(kysely);
          const text = texts(limit);
          expect(text.sql).toBe(fresh.sql);
          expect(text.parameters(owner, now, now + leaseFor)).toEqual(fresh.parameters);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('binds each of the claim’s own values somewhere, and the time more than once', () => {
    const params = sqliteClaimTexts(
      kysely,
      DELIVERY_QUEUE,
      DELIVERY_CAPS,
    )(12).parameters('w-1', 1000, 61_000);
    expect(params).toContain('w-1');
    expect(params).toContain(61_000);
    expect(params.filter((p) => p === 1000).length).toBeGreaterThan(1);
  });
});
