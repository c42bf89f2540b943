// The rate-limit store seam on PostgreSQL: buckets shared by every API process, one GCRA step for
// several buckets in one statement (see rate-limit-gcra.ts). The table is UNLOGGED: no WAL, no fsync per
// request; a crash of the database empties it, which only refills every bucket.
import { sql, type Kysely } from 'kysely';
import { gcraParams, type Bucket, type BucketState } from '../../rate-limit-gcra.js';
import type { Database } from '../schema.js';
import type { RateLimitStore } from '../seams.js';

export class PostgresRateLimitStore implements RateLimitStore {
  constructor(private readonly db: Kysely<Database>) {}

  async take(buckets: Bucket[], now: number): Promise<BucketState[]> {
    const rows = buckets.map((b) => {
      const { intervalMs, toleranceMs } = gcraParams(b.rate);
      // A new bucket starts empty: this request is allowed and its arrival time is now + interval.
      return sql`(${b.key}, ${now + intervalMs}::float8, ${intervalMs}::float8, ${toleranceMs}::float8, true)`;
    });
    const result = await sql<{ key: string; tat: number; allowed: boolean }>`
      insert into rate_limits as r (key, tat, interval_ms, tolerance_ms, allowed)
      values ${sql.join(rows)}
      on conflict (key) do update set
        allowed = greatest(r.tat, ${now}::float8) - ${now}::float8 <= excluded.tolerance_ms,
        tat = case when greatest(r.tat, ${now}::float8) - ${now}::float8 <= excluded.tolerance_ms
                   then greatest(r.tat, ${now}::float8) + excluded.interval_ms else r.tat end,
        interval_ms = excluded.interval_ms,
        tolerance_ms = excluded.tolerance_ms
      returning key, tat, allowed`.execute(this.db);
    const byKey = new Map(result.rows.map((r) => [r.key, r]));
    return buckets.map((b) => {
      const row = byKey.get(b.key)!;
      return { allowed: row.allowed, tat: Number(row.tat) };
    });
  }
}
