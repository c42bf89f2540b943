// A fingerprint of each inbound message (its envelope and bytes, SHA-256), so that a report sent again
// byte for byte (a relay that lost our 250 and retried) is recognised and recorded once: without it,
// each copy of a delay warning or a feedback report added its event and its webhook push again.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('inbound_messages').addColumn('digest', 'text').execute();
  await db.schema
    .createIndex('inbound_messages_digest')
    .on('inbound_messages')
    .column('digest')
    .where(sql.ref('digest'), 'is not', null)
    .execute();
}
