// Webhooks (docs/design.md §8): endpoints, the durable outbox of events to push, every attempt, and the
// notices shown to an account (e.g. "your endpoint was disabled"). Numbered 006: 004 and 005 belong to
// other work landing in parallel.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    // ",email.delivered,email.bounced,": commas around every type so one LIKE finds a type in both dialects
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('enabled', 'bigint', (c) => c.notNull())
    .addColumn('disabled_reason', 'text')
    // whsec_… sealed with the webhook-secret key (crypto/secret-box.ts), never in plain text
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_until', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The hot path's question "which endpoints of this account want this event?".
  await db.schema.createIndex('webhooks_account').on('webhooks').columns(['account_id', 'id']).execute();

  await db.schema
    .createTable('webhook_outbox')
    // `<event id>:<webhook id>`: built in SQL by the fan-out, one row per event and endpoint
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('webhook_outbox_due')
    .on('webhook_outbox')
    .column('next_attempt_at')
    .where(sql.ref('next_attempt_at'), 'is not', null)
    .execute();
  await db.schema.createIndex('webhook_outbox_webhook').on('webhook_outbox').column('webhook_id').execute();
  await db.schema.createIndex('webhook_outbox_event').on('webhook_outbox').column('event_id').execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    // no foreign key: a test event (webhook.test) has no event row
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('attempt', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'bigint', (c) => c.notNull())
    .addColumn('success', 'bigint', (c) => c.notNull())
    .addColumn('status_code', 'bigint')
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_webhook')
    .on('webhook_attempts')
    .columns(['webhook_id', 'id'])
    .execute();

  await db.schema
    .createTable('account_notices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_notices_account')
    .on('account_notices')
    .columns(['account_id', 'id'])
    .execute();
}
