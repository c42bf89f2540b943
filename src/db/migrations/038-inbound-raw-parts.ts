// A large inbound message's raw text written in parts (inbound_raw_parts) before its row is stored,
// as migration 037 did for a large HTML. On SQLite the receiver stores on the event loop's connection,
// and one insert of a 10 MB report (13 MB of base64) with its commit held the loop for 300–500 ms: eight
// sent at once to fbl@, which anyone may write to, stalled every request and SMTP reply for over a
// second. Written a part per turn, in short transactions of their own, it holds the loop a few
// milliseconds at a time (db/sqlite/parts-store.ts). The raw row then says how many parts there are,
// with raw ''. No foreign key: the parts are written before their message exists; they go with it
// (the processor's prune) or, left by a store that never finished, with the sweep, which reads
// inbound_raw_parts_pending (listed from the first part until the store that adopts them).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('inbound_raw_parts')
    .addColumn('inbound_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('part', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('inbound_raw_parts_pkey', ['inbound_id', 'seq'])
    .execute();
  await db.schema
    .createTable('inbound_raw_parts_pending')
    .addColumn('inbound_id', 'text', (c) => c.primaryKey())
    .execute();
  await db.schema
    .alterTable('inbound_raw')
    .addColumn('parts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
