// An account's reputation state (ARCHITECTURE.md, "Reputation guardrails"): healthy, warning or paused,
// why, and since when; and events about an account rather than a message (`account.warning`,
// `account.paused`), which go through the same webhook outbox as the message events: their
// `message_id` is null.
import { sql, SqliteAdapter, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('accounts')
    .addColumn('reputation_status', 'text', (c) => c.notNull().defaultTo('healthy'))
    .execute();
  await db.schema.alterTable('accounts').addColumn('reputation_reason', 'text').execute();
  await db.schema.alterTable('accounts').addColumn('reputation_changed_at', 'bigint').execute();
  // The worker reads the paused accounts every second and the sweep the warned ones: a partial index
  // holds only the accounts that are not healthy, a handful.
  await db.schema
    .createIndex('accounts_reputation_unhealthy')
    .on('accounts')
    .column('reputation_status')
    .where(sql.ref('reputation_status'), '<>', 'healthy')
    .execute();

  if (db.getExecutor().adapter instanceof SqliteAdapter) await nullableMessageIdSqlite(db);
  else await sql`alter table events alter column message_id drop not null`.execute(db);
}

/**
 * SQLite cannot drop a NOT NULL constraint: the table is rebuilt (a new table, the rows copied, the old
 * one dropped, the new one renamed). Foreign keys are off meanwhile: with them on, dropping the old table
 * would cascade to the webhook outbox rows that reference it; with them off, those rows keep naming
 * `events` and point at the renamed table. `pragma foreign_keys` takes effect only outside a transaction,
 * and Kysely runs SQLite migrations on one connection outside any, so it is set here; the copy itself is
 * one transaction, checked before its commit for broken references from the two tables it concerns
 * (an old orphan elsewhere in the database is none of this migration's business).
 */
async function nullableMessageIdSqlite(db: Kysely<unknown>): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      await sql`create table events_new (
        id text primary key,
        message_id text references messages (id) on delete cascade,
        account_id text not null,
        type text not null,
        created_at bigint not null,
        data text not null)`.execute(db);
      await sql`insert into events_new (id, message_id, account_id, type, created_at, data)
        select id, message_id, account_id, type, created_at, data from events`.execute(db);
      await sql`drop table events`.execute(db);
      await sql`alter table events_new rename to events`.execute(db);
      await sql`create index events_message on events (message_id, id)`.execute(db);
      for (const table of ['events', 'webhook_outbox']) {
        const broken = await sql`pragma foreign_key_check(${sql.raw(table)})`.execute(db);
        if (broken.rows.length > 0) throw new Error(`${table}: foreign keys broken by the rebuild`);
      }
      await sql`commit`.execute(db);
    } catch (err) {
      await sql`rollback`.execute(db);
      throw err;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
