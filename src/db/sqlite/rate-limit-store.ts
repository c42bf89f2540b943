// The rate-limit store seam on SQLite: a SQLite database is served by one process, so its buckets live
// in that process's memory, where a step costs no write at all.
import { gcraStep, type Bucket, type BucketState } from '../../rate-limit-gcra.js';
import type { RateLimitStore } from '../seams.js';

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly tats = new Map<string, number>();

  async take(buckets: Bucket[], now: number): Promise<BucketState[]> {
    if (this.tats.size > 100_000) this.forgetIdle(now);
    return buckets.map((b) => {
      const step = gcraStep(this.tats.get(b.key) ?? now, now, b.rate);
      this.tats.set(b.key, step.tat);
      return step;
    });
  }

  private forgetIdle(now: number): void {
    for (const [key, tat] of this.tats) if (tat <= now) this.tats.delete(key);
  }
}
