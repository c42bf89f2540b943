// Messages whose content carries a sign-in secret (a sign-up, password reset or invitation link: the
// "sealed" system mail of messages/system-mail.ts), listed so that their content is removed as soon as
// they are final, whatever the account's content retention: the token tables hold only hashes, and a
// copy of the database must not hold the live link in the message's HTML or kept bytes either.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sealed_messages')
    .addColumn('message_id', 'text', (c) => c.primaryKey().references('messages.id').onDelete('cascade'))
    .execute();
}
