// The rate-limit store seam's contract (db/seams.ts RateLimitStore), the same on SQLite (the process's
// memory) and PostgreSQL (a shared table): each take is one GCRA step (rate-limit-gcra.ts) per bucket at
// the time it is given, so a bucket allows its burst, then refuses, then refills as that time passes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RateLimitStore } from '../../src/db/seams.js';
import { gcraStep, type BucketState } from '../../src/rate-limit-gcra.js';
import { databaseKinds } from '../helpers/databases.js';
import { contractDatabase, type ContractDatabase } from './database.js';

const T0 = Date.UTC(2026, 10, 24, 12);

describe.each(databaseKinds)('the rate-limit store seam on $name', (kind) => {
  let c: ContractDatabase;
  let store: RateLimitStore;
  beforeAll(async () => {
    c = await contractDatabase(kind);
    store = c.seams.rateLimitStore();
  });
  afterAll(() => c.close());

  let n = 0;
  /** A bucket no other test touched. */
  const fresh = () => `k:contract-${++n}`;
  const allowed = (states: BucketState[]) => states.map((s) => s.allowed);

  it('allows a burst of twice the rate, then refuses until the time passed refills it', async () => {
    const bucket = { key: fresh(), rate: 2 }; // 500 ms apart, bursts of 4
    const at = async (t: number) => (await store.take([bucket], t))[0]!;
    for (let i = 0; i < 4; i++) expect((await at(T0)).allowed).toBe(true);
    const refused = await at(T0);
    expect(refused).toEqual({ allowed: false, tat: T0 + 2000 });
    // A refusal takes nothing: half an interval later it is still refused, a whole one later allowed.
    expect((await at(T0 + 250)).allowed).toBe(false);
    expect(await at(T0 + 500)).toEqual({ allowed: true, tat: T0 + 2500 });
    expect((await at(T0 + 500)).allowed).toBe(false);
    // Idle long enough, the whole burst is back.
    for (let i = 0; i < 4; i++) expect((await at(T0 + 60_000)).allowed).toBe(true);
    expect((await at(T0 + 60_000)).allowed).toBe(false);
  });

  it('steps several buckets at once, each on its own, answered in order', async () => {
    const slow = { key: fresh(), rate: 1 };
    const fast = { key: fresh(), rate: 10 };
    expect(allowed(await store.take([slow, fast], T0))).toEqual([true, true]);
    expect(allowed(await store.take([slow, fast], T0))).toEqual([true, true]);
    expect(allowed(await store.take([fast, slow], T0))).toEqual([true, false]);
  });

  it('agrees with the GCRA arithmetic step by step', async () => {
    const bucket = { key: fresh(), rate: 4 };
    let tat = T0;
    let t = T0;
    // Arrivals closer together than the rate, then further apart: both allowed and refused steps.
    for (const gap of [0, 10, 10, 10, 10, 10, 10, 100, 300, 0, 0, 0, 0, 1000, 20]) {
      t += gap;
      const expected = gcraStep(tat, t, bucket.rate);
      const [state] = await store.take([bucket], t);
      expect(state).toEqual(expected);
      tat = expected.tat;
    }
  });
});
