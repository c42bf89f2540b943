// The audit log (docs/design.md §2, "Audit log"): every change made to an account, by whom (a member or an
// API key), when and from which address. Kept as long as the account's plan keeps logs (the retention
// sweeper deletes older entries).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // member | api_key | operator
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    // The member's address or the key's prefix as it was then (the member or key may be gone later).
    .addColumn('actor_label', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('audit_log_account_id').on('audit_log').columns(['account_id', 'id']).execute();
  await db.schema
    .createIndex('audit_log_account_created')
    .on('audit_log')
    .columns(['account_id', 'created_at'])
    .execute();
}
