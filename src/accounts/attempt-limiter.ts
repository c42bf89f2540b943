// Counts failed attempts per key (an IP address, an email address) in a fixed window, in memory.
// Used for dashboard log-ins and reset requests: a guesser is stopped after `max` failures per window.
// Per process: with several API processes the effective limit is `max` × processes, still far below
// what a password guess needs; the scrypt cost bounds the rate further.

export interface AttemptDecision {
  allowed: boolean;
  /** Seconds until the key may try again (when not allowed). */
  retryAfterSeconds: number;
}

export class AttemptLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Whether `key` may try now (does not count the attempt). */
  check(key: string, now: number): AttemptDecision {
    const w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs || w.count < this.max)
      return { allowed: true, retryAfterSeconds: 0 };
    return { allowed: false, retryAfterSeconds: Math.ceil((w.start + this.windowMs - now) / 1000) };
  }

  /** Counts one attempt against `key`. */
  record(key: string, now: number): void {
    const w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) this.windows.set(key, { start: now, count: 1 });
    else w.count++;
    if (this.windows.size > 100_000) this.prune(now);
  }

  /** Forgets `key` (a successful log-in clears its address's failures). */
  reset(key: string): void {
    this.windows.delete(key);
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
  }
}
