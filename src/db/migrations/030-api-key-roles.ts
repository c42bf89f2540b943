// An API key made by an invited member carries that member and its role (docs/design.md §2): the key
// can do what its maker may, no more, and goes when the member is removed. Keys made by the owner or
// the operator (and every key made before members existed) have neither: they keep full rights.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('member_id', 'text').execute();
  await db.schema.alterTable('api_keys').addColumn('role', 'text').execute();
  await db.schema
    .createIndex('api_keys_member_id')
    .on('api_keys')
    .columns(['member_id'])
    .where(sql.ref('member_id'), 'is not', null)
    .execute();
}
