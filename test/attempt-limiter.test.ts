import { describe, expect, it } from 'vitest';
import { AttemptLimiter } from '../src/accounts/attempt-limiter.js';

describe('attempt limiter', () => {
  it('refuses a key after max attempts in the window, says for how long, and forgets it after', () => {
    const limiter = new AttemptLimiter(3, 60_000);
    for (let i = 0; i < 3; i++) {
      expect(limiter.check('k', 1000 + i).allowed).toBe(true);
      limiter.record('k', 1000 + i);
    }
    expect(limiter.check('k', 31_000)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(limiter.check('other', 31_000).allowed).toBe(true);
    expect(limiter.check('k', 61_000).allowed).toBe(true);
  });

  it('forgets a key on reset (a successful log-in)', () => {
    const limiter = new AttemptLimiter(1, 60_000);
    limiter.record('k', 0);
    expect(limiter.check('k', 1).allowed).toBe(false);
    limiter.reset('k');
    expect(limiter.check('k', 1).allowed).toBe(true);
  });
});
