// Which messages in hand the delivery worker renews the lease of (worker.ts leasesToRenew): those whose
// lease ends within half a lease, unless they have been in hand for MAX_HOLD_MS; the clock is passed in.
import { describe, expect, it } from 'vitest';
import { leasesToRenew, MAX_HOLD_MS } from '../../src/delivery/worker.js';

describe('leasesToRenew', () => {
  const LEASE = 600_000;
  const now = 100_000_000;

  it('renews the leases that end within half a lease, and only those', () => {
    const since = now - 60_000;
    const held = new Map([
      ['fresh', { since, until: now + LEASE }], // just claimed
      ['half', { since, until: now + LEASE / 2 }], // exactly half left: not yet
      ['near', { since, until: now + LEASE / 2 - 1 }],
      ['ended', { since, until: now - 1 }], // its end passed (a slow renewal): renewed if still ours
    ]);
    expect(leasesToRenew(held, now, LEASE)).toEqual({ renew: ['near', 'ended'], overdue: [] });
  });

  it('stops renewing a message in hand for MAX_HOLD_MS: something hangs, and the lease is left to end', () => {
    const held = new Map([
      ['long', { since: now - MAX_HOLD_MS + 1, until: now + 1 }],
      ['hung', { since: now - MAX_HOLD_MS, until: now + 1 }],
      // Overdue but not yet near its end: nothing to say about it yet.
      ['later', { since: now - 2 * MAX_HOLD_MS, until: now + LEASE }],
    ]);
    expect(leasesToRenew(held, now, LEASE)).toEqual({ renew: ['long'], overdue: ['hung'] });
  });

  it('renews nothing when nothing is in hand', () => {
    expect(leasesToRenew(new Map(), 0, LEASE)).toEqual({ renew: [], overdue: [] });
  });
});
