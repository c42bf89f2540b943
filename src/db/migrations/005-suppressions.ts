// Bounces, complaints and the suppression list: the account's suppressed addresses, and every message
// the inbound SMTP receiver has answered 250 to, stored before it is processed (so none is lost).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('suppressions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    // lower case, domain in ASCII (punycode): the form the send path looks up
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('enhanced_code', 'text')
    // no foreign key: the suppression outlives the message when the log's retention deletes it
    .addColumn('source_message_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // The send path's one look-up, (account, address), is this constraint's index.
    .addUniqueConstraint('suppressions_account_address', ['account_id', 'address'])
    .execute();
  // The list, newest first, per account (ids are time-ordered UUIDv7).
  await db.schema
    .createIndex('suppressions_account_id')
    .on('suppressions')
    .columns(['account_id', 'id'])
    .execute();

  // The receiver asks "is this one of our customers' domains?" for every recipient (at RCPT):
  // answered by the index domains_name of migration 004.

  await db.schema
    .createTable('inbound_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('remote_ip', 'text', (c) => c.notNull())
    .addColumn('helo', 'text', (c) => c.notNull())
    .addColumn('mail_from', 'text', (c) => c.notNull())
    // JSON array of the accepted envelope recipients
    .addColumn('rcpt_to', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    // base64: the same column type on both dialects, and PostgreSQL text cannot hold NUL bytes
    .addColumn('raw', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('processed_at', 'bigint')
    // JSON: what processing found and did
    .addColumn('outcome', 'text')
    .execute();
  // Pruning: processed messages are kept a week for inspection, then deleted oldest first.
  await db.schema
    .createIndex('inbound_messages_received')
    .on('inbound_messages')
    .column('received_at')
    .execute();
  // The recovery pass looks only at messages still waiting.
  await db.schema
    .createIndex('inbound_messages_pending')
    .on('inbound_messages')
    .column('lease_expires_at')
    .where(sql.ref('status'), '=', 'pending')
    .execute();
}
