// Source addresses: which one each attempt left from, and the daily counts that pace warm-ups.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('delivery_attempts').addColumn('source_ip', 'text').execute();
  await db.schema
    .createTable('source_ip_usage')
    .addColumn('ip', 'text', (c) => c.notNull())
    // UTC day, YYYY-MM-DD
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('sent', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('source_ip_usage_pk', ['ip', 'day'])
    .execute();
}
