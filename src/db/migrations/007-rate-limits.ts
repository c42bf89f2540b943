// Rate-limit buckets shared by API processes (PostgreSQL only: SQLite is one process, limits in memory).
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  // UNLOGGED: a bucket is not worth an fsync; after a database crash the buckets start full.
  await sql`create unlogged table rate_limits (
    key text primary key,
    tat double precision not null,
    interval_ms double precision not null,
    tolerance_ms double precision not null,
    allowed boolean not null
  )`.execute(db);
}
