// Counted attempts of the dashboard's sign-in (failed log-ins, mail requests, per-IP requests) shared by
// every process, and the indexes the retention sweeper needs to delete what has expired.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('attempt_counts')
    // SHA-256 of the limit's scope and the counted thing (an address, an IP): neither is stored.
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    // End of the window; an attempt after it starts a new one.
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attempt_counts_expires').on('attempt_counts').column('expires_at').execute();

  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();
  await db.schema
    .createIndex('idempotency_keys_created')
    .on('idempotency_keys')
    .column('created_at')
    .execute();
}
