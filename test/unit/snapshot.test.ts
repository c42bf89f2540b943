// The shared-read snapshot (snapshot.ts): one read per period however many ask, concurrent askers
// share it, a failed read keeps the last value and waits the period before the next try.
import { describe, expect, it } from 'vitest';
import { Snapshot } from '../../src/snapshot.js';

describe('Snapshot', () => {
  it('reads once per period, shares a read in flight, and keeps the last value when a read fails', async () => {
    let now = 0;
    let reads = 0;
    let fail = false;
    const errors: unknown[] = [];
    const s = new Snapshot(
      async () => {
        reads++;
        if (fail) throw new Error('down');
        return reads;
      },
      0,
      1000,
      () => now,
      (err) => errors.push(err),
    );
    expect(await Promise.all([s.get(), s.get(), s.get()])).toEqual([1, 1, 1]);
    now = 999;
    expect(await s.get()).toBe(1);
    expect(reads).toBe(1);
    now = 1000;
    expect(await s.get()).toBe(2);
    fail = true;
    now = 2000;
    expect(await s.get()).toBe(2);
    expect(errors).toHaveLength(1);
    // The failed read counts as a read: no retry on every ask.
    now = 2500;
    expect(await s.get()).toBe(2);
    expect(reads).toBe(3);
    fail = false;
    now = 3000;
    expect(await s.get()).toBe(4);
  });
});
