// Requests per second per API key: a token bucket (steady `rate`, bursts up to twice that), kept in this
// process. The figures are reported in the RateLimit-* headers of every authenticated response.
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one request is allowed again (when refused). */
  retryAfterSeconds: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly capacity: number;

  constructor(private readonly rate: number) {
    this.capacity = rate * 2;
  }

  get enabled(): boolean {
    return this.rate > 0;
  }

  take(key: string, now: number): RateDecision {
    const b = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    b.tokens = Math.min(this.capacity, b.tokens + ((now - b.at) / 1000) * this.rate);
    b.at = now;
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    if (this.buckets.size > 100_000) this.buckets.clear();
    this.buckets.set(key, b);
    return {
      allowed,
      limit: this.capacity,
      remaining: Math.floor(b.tokens),
      resetSeconds: Math.ceil((this.capacity - b.tokens) / this.rate),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - b.tokens) / this.rate)),
    };
  }
}
