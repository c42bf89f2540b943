// The content retention's grace after an upgrade (docs/upgrading.md): migration 026 gave every existing
// account content_retention_days = 30, so the first sweep after an upgrade past it removed at once the
// content of every message final for more than 30 days, which had been kept until then. This records
// when content retention began on this database, the time 026 ran (the migrator's own record of it),
// when the database held messages by then; the sweeper keeps the content of messages final before that
// time for a grace period after it (retention/content-grace.ts), so operators can read the upgrade note
// and keep content where they must. A database that held no message then has nothing to keep: no row.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Times when an upgrade changed what the service does with data already stored, by name.
  await db.schema
    .createTable('upgrade_marks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  // Kysely records each migration's name and ISO time as it applies it, in the same run before this one.
  const ran = await sql<{ timestamp: string }>`
    select timestamp from kysely_migration where name = '026-message-content'`.execute(db);
  const at026 = Date.parse(ran.rows[0]?.timestamp ?? '');
  const at = Number.isNaN(at026) ? Date.now() : at026;
  const held = await sql`select 1 from messages where created_at < ${at} limit 1`.execute(db);
  if (held.rows.length > 0) {
    await sql`insert into upgrade_marks (name, at) values ('content_retention', ${at})`.execute(db);
  }
}
