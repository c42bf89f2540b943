// The log's search and re-send (docs/API.md, "The delivery log"): the recipient-domain filter pages by id
// within a domain, and a re-sent copy names its original (`messages.resent_from`), indexed for the
// original's list of copies.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('messages_account_to_domain')
    .on('messages')
    .columns(['account_id', 'to_domain', 'id'])
    .execute();
  await db.schema.alterTable('messages').addColumn('resent_from', 'text').execute();
  await db.schema
    .createIndex('messages_resent_from')
    .on('messages')
    .columns(['resent_from'])
    .where(sql.ref('resent_from'), 'is not', null)
    .execute();
}
