// Destination blocks (ARCHITECTURE.md, "Destination blocks"): which accounts a destination refused as
// a sender block recently, per source address, and the pauses that follow when several did. Shared by
// every worker process through the database.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sender_block_hits')
    // The destination (destination-key.ts): the MX host's registered domain, or `relay:<host>`.
    .addColumn('destination', 'text', (c) => c.notNull())
    // The source address the refused attempt left from; '' for the system's choice.
    .addColumn('source_ip', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    // The account's latest sender block there (ms).
    .addColumn('hit_at', 'bigint', (c) => c.notNull())
    // The account's sender blocks there since its row last fell out of the window.
    .addColumn('replies', 'integer', (c) => c.notNull().defaultTo(1))
    .addPrimaryKeyConstraint('sender_block_hits_pk', ['destination', 'source_ip', 'account_id'])
    .execute();
  await db.schema
    .createTable('destination_blocks')
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('source_ip', 'text', (c) => c.notNull())
    // Mail for the destination does not leave from the source address before this time (ms).
    .addColumn('paused_until', 'bigint', (c) => c.notNull())
    .addColumn('paused_at', 'bigint', (c) => c.notNull())
    // Distinct accounts refused within the window when the pause was set.
    .addColumn('accounts', 'integer', (c) => c.notNull())
    // The last refusal's reply, for the operator (cut to a few hundred characters).
    .addColumn('reply', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('destination_blocks_pk', ['destination', 'source_ip'])
    .execute();
}
