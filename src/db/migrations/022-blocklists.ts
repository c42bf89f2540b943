// Blocklist monitoring (blocklists/, ARCHITECTURE.md "Blocklist monitoring"): the last verdict of each
// (target, zone), and the one row that says when the next check is due and who runs it.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('blocklist_listings')
    // A source address or a name the service uses.
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('zone', 'text', (c) => c.notNull())
    // 'address' or 'name'
    .addColumn('kind', 'text', (c) => c.notNull())
    // 1 listed, 0 not: the last verdict (an unusable answer keeps the one before).
    .addColumn('listed', 'integer', (c) => c.notNull())
    .addColumn('answer', 'text')
    .addColumn('reason', 'text')
    .addColumn('error', 'text')
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .addColumn('listed_since', 'bigint')
    .addPrimaryKeyConstraint('blocklist_listings_pk', ['target', 'zone'])
    .execute();
  await db.schema
    .createTable('blocklist_schedule')
    // One row, id 'monitor': a conditional update of next_run_at elects the process that checks.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('next_run_at', 'bigint', (c) => c.notNull())
    .addColumn('owner', 'text')
    .addColumn('last_run_at', 'bigint')
    .execute();
}
