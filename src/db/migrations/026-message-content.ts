// A message's content kept apart from its log (ARCHITECTURE.md, "Message content"): the exact bytes
// sent, as signed (`message_raw`, one row per message, the latest attempt's, gzip in base64 so both
// dialects store it as text), and how long an account keeps content once a message is final
// (`accounts.content_retention_days`, default 30 days; null keeps it). `messages.content_removed_at`
// says the HTML and the raw bytes went; the metadata, events and attempts stay for the plan's retention.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('message_raw')
    .addColumn('message_id', 'text', (c) => c.primaryKey().references('messages.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    // gzip of the signed message, base64.
    .addColumn('raw', 'text', (c) => c.notNull())
    // Bytes as sent (before compression).
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('signed_at', 'bigint', (c) => c.notNull())
    .execute();
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema
    .alterTable('accounts')
    .addColumn('content_retention_days', 'integer', (c) => c.defaultTo(30))
    .execute();
  await db.schema.alterTable('messages').addColumn('content_removed_at', 'bigint').execute();
  // The content sweep's batch: an account's final messages (next_attempt_at null) whose content is
  // still kept, oldest change first. Partial: a message leaves the index when its content goes.
  await db.schema
    .createIndex('messages_content_kept')
    .on('messages')
    .columns(['account_id', 'updated_at'])
    .where(sql.ref('content_removed_at'), 'is', null)
    .where(sql.ref('next_attempt_at'), 'is', null)
    .execute();
}
