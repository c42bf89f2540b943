// Commits that need not wait for the disk, on SQLite: the webhook outbox's claims and records, through
// Kysely (db/sqlite/connection.ts does the same on the raw connection, for the delivery queue's and a
// large HTML's parts;
// ARCHITECTURE.md, "Durability"). They run with synchronous=NORMAL on the one connection, which Kysely
// holds for them so no other query commits meanwhile; the next accept's commit or the checkpointer's
// next pass (within 250 ms) syncs them. A process that dies loses none; a power cut in that moment can
// lose a claim (the row is due again) or a record (the push goes again: a duplicate, never a loss).
// PostgreSQL commits as it always does.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.js';
import type { Database } from './schema.js';

export function unsyncedCommits<T>(
  db: Kysely<Database>,
  dialect: Dialect,
  fn: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (dialect !== 'sqlite') return fn(db);
  return db.connection().execute(async (conn) => {
    await sql`pragma synchronous = normal`.execute(conn);
    try {
      return await fn(conn);
    } finally {
      await sql`pragma synchronous = full`.execute(conn);
    }
  });
}
