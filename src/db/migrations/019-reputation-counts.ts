// Per account, sending domain and UTC day, what happened to its mail (ARCHITECTURE.md, "Reputation
// counts"): kept up to date in the transactions that change a message's state, so the rolling rates and
// the activity chart are sums over a few rows, never a scan of the events.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reputation_counts')
    .addColumn('account_id', 'text', (c) => c.notNull())
    // The message's from_domain.
    .addColumn('domain', 'text', (c) => c.notNull())
    // 'YYYY-MM-DD', UTC: compares as text in both dialects.
    .addColumn('day', 'text', (c) => c.notNull())
    // Activity (never reset).
    .addColumn('sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('delivered', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bounced', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('complained', 'integer', (c) => c.notNull().defaultTo(0))
    // The rolling window (zeroed when an operator resumes the account).
    .addColumn('final', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bad_bounces', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('spam_complaints', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('reputation_counts_pk', ['account_id', 'day', 'domain'])
    .execute();
  // The windows of every account at once (metrics, the periodic sweep) read the last days only.
  await db.schema.createIndex('reputation_counts_by_day').on('reputation_counts').column('day').execute();
}
