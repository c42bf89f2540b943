// Traffic shaping per destination (an MX host, or the relay): at most N concurrent deliveries; a
// throttling reply halves N and pauses the destination; successes slowly earn the concurrency back.
export interface DestinationLimitsOptions {
  maxConcurrency: number;
  /** Overrides for destinations by key prefix, e.g. `relay:` (a relay is built for more connections). */
  maxConcurrencyFor?: Record<string, number>;
  pauseMs: number;
  /** Successful deliveries needed to raise the concurrency by one after a throttle. */
  recoverAfter: number;
}

interface Destination {
  limit: number;
  active: number;
  waiting: (() => void)[];
  pausedUntil: number;
  successes: number;
}

export const DEFAULT_DESTINATION_LIMITS: DestinationLimitsOptions = {
  maxConcurrency: 5,
  pauseMs: 60_000,
  recoverAfter: 20,
};

export class DestinationLimits {
  private readonly destinations = new Map<string, Destination>();

  constructor(private readonly options: DestinationLimitsOptions = DEFAULT_DESTINATION_LIMITS) {}

  /** When the destination may be tried again, or undefined when it is not paused. */
  pausedUntil(key: string, now: number): number | undefined {
    const d = this.destinations.get(key);
    return d && d.pausedUntil > now ? d.pausedUntil : undefined;
  }

  /** Waits for a delivery slot; call the returned function when the delivery is over. */
  async acquire(key: string): Promise<() => void> {
    const d = this.get(key);
    while (d.active >= d.limit) await new Promise<void>((resolve) => d.waiting.push(resolve));
    d.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      d.active--;
      d.waiting.shift()?.();
    };
  }

  /** The destination pushed back (421, rate limit): halve its concurrency and pause it. */
  throttled(key: string, now: number): void {
    const d = this.get(key);
    d.limit = Math.max(1, Math.floor(d.limit / 2));
    d.pausedUntil = now + this.options.pauseMs;
    d.successes = 0;
  }

  delivered(key: string): void {
    const d = this.get(key);
    if (d.limit >= this.maxFor(key)) return;
    if (++d.successes >= this.options.recoverAfter) {
      d.limit++;
      d.successes = 0;
      d.waiting.shift()?.();
    }
  }

  concurrency(key: string): number {
    return this.get(key).limit;
  }

  private maxFor(key: string): number {
    for (const [prefix, max] of Object.entries(this.options.maxConcurrencyFor ?? {})) {
      if (key.startsWith(prefix)) return max;
    }
    return this.options.maxConcurrency;
  }

  private get(key: string): Destination {
    let d = this.destinations.get(key);
    if (!d) {
      d = { limit: this.maxFor(key), active: 0, waiting: [], pausedUntil: 0, successes: 0 };
      this.destinations.set(key, d);
    }
    return d;
  }
}
