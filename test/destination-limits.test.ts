import { describe, expect, it } from 'vitest';
import { DestinationLimits } from '../src/delivery/destination-limits.js';

describe('destination limits', () => {
  const options = {
    maxConcurrency: 8,
    pauseMs: 60_000,
    recoverAfter: 3,
    maxConcurrencyFor: { 'relay:': 20 },
  };

  it('halves concurrency and pauses a destination that throttles, and earns it back with successes', () => {
    const limits = new DestinationLimits(options);
    limits.throttled('mx:a', 1000);
    expect(limits.concurrency('mx:a')).toBe(4);
    expect(limits.pausedUntil('mx:a', 1000)).toBe(61_000);
    expect(limits.pausedUntil('mx:a', 61_000)).toBeUndefined();
    limits.throttled('mx:a', 2000);
    limits.throttled('mx:a', 3000);
    limits.throttled('mx:a', 4000);
    expect(limits.concurrency('mx:a')).toBe(1);
    for (let i = 0; i < 3; i++) limits.delivered('mx:a');
    expect(limits.concurrency('mx:a')).toBe(2);
    expect(limits.concurrency('mx:b')).toBe(8); // other destinations are untouched
    expect(limits.concurrency('relay:smtp.example')).toBe(20);
  });

  it('makes deliveries past the limit wait for a free slot', async () => {
    const limits = new DestinationLimits({ ...options, maxConcurrency: 2 });
    const first = await limits.acquire('mx:a');
    await limits.acquire('mx:a');
    let third = false;
    const waiting = limits.acquire('mx:a').then(() => (third = true));
    await new Promise((r) => setImmediate(r));
    expect(third).toBe(false);
    first();
    await waiting;
    expect(third).toBe(true);
  });
});
