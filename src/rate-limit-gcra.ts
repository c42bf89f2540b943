// The arithmetic of the request rate limits (http/rate-limit.ts): GCRA, the generic cell rate algorithm,
// one number per bucket, its "theoretical arrival time". A leaf without imports: the shared PostgreSQL
// store (db/postgres/rate-limit-store.ts) applies the same step in one statement; where the
// buckets live is the rate-limit store seam (db/seams.ts RateLimitStore).

export interface Bucket {
  key: string;
  /** Requests per second. */
  rate: number;
}

/** GCRA parameters of a bucket: the emission interval and the burst capacity (2 × rate). */
export function gcraParams(rate: number): { intervalMs: number; capacity: number; toleranceMs: number } {
  const intervalMs = 1000 / rate;
  const capacity = rate * 2;
  return { intervalMs, capacity, toleranceMs: (capacity - 1) * intervalMs };
}

/** One GCRA step: the new theoretical arrival time and whether the request is allowed. */
export function gcraStep(tat: number, now: number, rate: number): { tat: number; allowed: boolean } {
  const { intervalMs, toleranceMs } = gcraParams(rate);
  const start = Math.max(tat, now);
  if (start - now > toleranceMs) return { tat, allowed: false };
  return { tat: start + intervalMs, allowed: true };
}

export interface BucketState {
  allowed: boolean;
  /** The bucket's arrival time after this request. */
  tat: number;
}
