// A message's HTML in a table of its own (message_bodies), out of the queue's row. The worker changes a
// queued message's row twice (its claim leases it; its record stores the outcome), and each change
// wrote the whole row out again: SQLite rewrites a changed record with its overflow pages, so a 20 KB
// body doubled the claim's and the record's cost (bench/queue-body-size), with every byte of it written
// twice more to the WAL and then to the database file. The body is written once, when the message is
// accepted, and read when it is built and when the log shows it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('message_bodies')
    .addColumn('message_id', 'text', (c) => c.primaryKey().references('messages.id').onDelete('cascade'))
    .addColumn('html', 'text', (c) => c.notNull())
    .execute();
  await sql`insert into message_bodies (message_id, html) select id, html from messages`.execute(db);
  await db.schema.alterTable('messages').dropColumn('html').execute();
}
