// Delivery: DKIM keys (private keys encrypted at rest) and one row per delivery attempt.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dkim_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // null for the service's own keys (the test domain)
    .addColumn('account_id', 'text', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('selector', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('dkim_keys_domain_selector', ['domain', 'selector'])
    .execute();

  await db.schema
    .createTable('delivery_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message_id', 'text', (c) => c.notNull().references('messages.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'bigint', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('remote_host', 'text')
    .addColumn('remote_ip', 'text')
    .addColumn('tls', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('smtp_code', 'bigint')
    .addColumn('enhanced_code', 'text')
    .addColumn('reply', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('delivery_attempts_message')
    .on('delivery_attempts')
    .columns(['message_id', 'id'])
    .execute();
}
