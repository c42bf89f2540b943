// The clock is passed in, never read deep inside, so tests can move time (retention, quotas, retries).
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/**
 * The UTC day of a time (ms), `YYYY-MM-DD`: the key of every daily count (test sends, a source
 * address's warm-up, reputation counts).
 */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock a test sets by hand. */
export class ManualClock implements Clock {
  constructor(private t: number = Date.UTC(2026, 10, 22, 12, 0, 0)) {}
  now(): number {
    return this.t;
  }
  set(t: number): void {
    this.t = t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
