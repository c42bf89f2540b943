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

  it('reads again after invalidate(), and does not trust a read that was in flight when it was called', async () => {
    let stored = 'before';
    const releases: (() => void)[] = [];
    let reads = 0;
    const s = new Snapshot(
      async () => {
        reads++;
        // What the row says when the read begins; the answer comes when the test releases it.
        const seen = stored;
        await new Promise<void>((resolve) => releases.push(resolve));
        return seen;
      },
      'initial',
      1000,
      () => 0,
      () => undefined,
    );
    const first = s.get();
    await Promise.resolve();
    // The change lands while the read is in flight; the process that made it says so.
    stored = 'after';
    s.invalidate();
    const asked = s.get();
    releases.shift()!();
    expect(await first).toBe('before');
    await new Promise((resolve) => setImmediate(resolve));
    expect(reads).toBe(2);
    releases.shift()!();
    expect(await asked).toBe('after');
    // Within the period again: no more reads until the next invalidate().
    expect(await s.get()).toBe('after');
    expect(reads).toBe(2);
    s.invalidate();
    const again = s.get();
    releases.shift()!();
    expect(await again).toBe('after');
    expect(reads).toBe(3);
  });
});
