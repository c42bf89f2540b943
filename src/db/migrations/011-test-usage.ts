// The daily allowance of test sends (accounts/plans.ts testSendsPerDay): one counter per account and
// UTC day, incremented by a conditional upsert inside the accept transaction, like `usage` for the
// monthly cap. Past days are never read again; the retention sweeper deletes them (by `day`).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('test_usage')
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    // UTC day, YYYY-MM-DD
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('sent', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('test_usage_pk', ['account_id', 'day'])
    .execute();
  await db.schema.createIndex('test_usage_day').on('test_usage').column('day').execute();
}
