// Sign-up that reveals nothing and cannot be pre-claimed: the password chosen at sign-up waits on its
// verification link (account_tokens.password_hash) and reaches the account only when that link is used,
// so nobody who cannot read the inbox ever sets the password of an account at that address.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // scrypt hash, like accounts.password_hash; null for the other tokens (reset links, links mailed
  // again to a logged-in account). Deleted with the token once used or expired (retention sweeper).
  await db.schema.alterTable('account_tokens').addColumn('password_hash', 'text').execute();
}
