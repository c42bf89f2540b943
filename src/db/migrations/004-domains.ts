// Domain verification: the verification window, the findings of the last DNS check, and the re-check
// schedule with a lease so that many processes can share the checking (same pattern as the message queue).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('domains').addColumn('verification_started_at', 'bigint').execute();
  for (const [column, type] of [
    ['failing_since', 'bigint'],
    ['last_checked_at', 'bigint'],
    ['findings', 'text'],
    ['next_check_at', 'bigint'],
    ['check_lease_owner', 'text'],
    ['check_lease_until', 'bigint'],
  ] as const) {
    // One column per statement: SQLite's ALTER TABLE adds one column at a time.
    await db.schema.alterTable('domains').addColumn(column, type).execute();
  }
  await sql`update domains set verification_started_at = created_at`.execute(db);
  // The checker's claim: only domains with a scheduled check are indexed.
  await db.schema
    .createIndex('domains_due')
    .on('domains')
    .column('next_check_at')
    .where(sql.ref('next_check_at'), 'is not', null)
    .execute();
  await db.schema.createIndex('domains_name').on('domains').column('name').execute();
}
