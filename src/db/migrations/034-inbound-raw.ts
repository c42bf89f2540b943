// An inbound message's raw text in a table of its own (inbound_raw), out of the row the recovery pass
// leases and the processor marks done. SQLite rewrites a changed record with its overflow pages, so
// every lease, retry and completion of a 10 MB report wrote 14 MB again, and the claim's RETURNING
// handed all of it back on the event loop: 0.6-0.9 s stalls while the pass drained a backlog of large
// reports. The raw text is written once, when the message is received, read once when it is parsed,
// and deleted with its row (migration 033 did the same for message bodies).
import { PostgresAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('inbound_raw')
    .addColumn('inbound_id', 'text', (c) =>
      c.primaryKey().references('inbound_messages.id').onDelete('cascade'),
    )
    // base64, as before: the same column type on both dialects (migration 005)
    .addColumn('raw', 'text', (c) => c.notNull())
    .execute();
  // On PostgreSQL a receiver of the version before may still be storing reports: the lock holds its
  // inserts until the copy and the drop commit, so none is stored between them without its raw text.
  // (SQLite's migration holds the one write lock throughout.)
  if (db.getExecutor().adapter instanceof PostgresAdapter)
    await sql`lock table inbound_messages in share row exclusive mode`.execute(db);
  await sql`insert into inbound_raw (inbound_id, raw) select id, raw from inbound_messages`.execute(db);
  await db.schema.alterTable('inbound_messages').dropColumn('raw').execute();
}
