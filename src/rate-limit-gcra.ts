// The arithmetic of the request rate limits (http/rate-limit.ts): GCRA, the generic cell rate algorithm,
// one number per bucket, its "theoretical arrival time". A leaf without imports: the shared PostgreSQL
// store (db/rate-limit-repo.ts) applies the same step in one statement.

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

/** Where bucket states live: this process (SQLite, one process) or PostgreSQL (shared by processes). */
export interface RateLimitStore {
  take(buckets: Bucket[], now: number): Promise<BucketState[]>;
}
