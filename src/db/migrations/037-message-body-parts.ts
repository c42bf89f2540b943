// A large message's HTML written in parts (message_body_parts) before the message itself is stored.
// On SQLite the accept runs on the event loop in `txmail serve`, and one insert of 10 MiB of HTML held
// the loop for 150–250 ms (its commit included): no request, SMTP reply or health probe was answered
// meanwhile. Written a part per turn, in short transactions of their own, it holds the loop a few
// milliseconds at a time (db/sqlite/body-parts.ts). The message's body row then says how many parts
// its HTML has, with html ''. No foreign key: the parts are written before their message exists, and
// go with it (retention) or, left by a refused or interrupted accept, are swept. The sweep reads
// message_body_parts_pending, where a message's id is listed from its first part until the accept that
// stores the message (or the writer's discard) takes it off: scanning the parts of every stored message
// at each pass grew with the log.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('message_body_parts')
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_body_parts_pkey', ['message_id', 'seq'])
    .execute();
  await db.schema
    .createTable('message_body_parts_pending')
    .addColumn('message_id', 'text', (c) => c.primaryKey())
    .execute();
  await db.schema
    .alterTable('message_bodies')
    .addColumn('parts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
