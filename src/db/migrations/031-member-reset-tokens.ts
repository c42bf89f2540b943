// An invited member resets a forgotten password as the owner does (docs/API.md, "Dashboard sign-in"):
// a reset link of a member is an `account_tokens` row of its account that names the member. Null is the
// owner's (every token made before this). Removing the member deletes its links with it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('account_tokens')
    .addColumn('member_id', 'text', (c) => c.references('members.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createIndex('account_tokens_member_id')
    .on('account_tokens')
    .columns(['member_id'])
    .where(sql.ref('member_id'), 'is not', null)
    .execute();
}
