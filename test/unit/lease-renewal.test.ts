// Which messages in hand the delivery worker renews the lease of (worker.ts leasesToRenew): those whose
// lease ends within half a lease; the clock is passed in.
import { describe, expect, it } from 'vitest';
import { leasesToRenew } from '../../src/delivery/worker.js';

describe('leasesToRenew', () => {
  const LEASE = 600_000;

  it('renews the leases that end within half a lease, and only those', () => {
    const now = 1_000_000;
    const held = new Map([
      ['fresh', now + LEASE], // just claimed
      ['half', now + LEASE / 2], // exactly half left: not yet
      ['near', now + LEASE / 2 - 1],
      ['ended', now - 1], // its end passed (a slow renewal): renewed if still ours
    ]);
    expect(leasesToRenew(held, now, LEASE)).toEqual(['near', 'ended']);
  });

  it('renews nothing when nothing is in hand', () => {
    expect(leasesToRenew(new Map(), 0, LEASE)).toEqual([]);
  });
});
