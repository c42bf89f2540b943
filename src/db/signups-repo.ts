// Sign-up links (accounts/signup.ts): an account at a new address starts unverified and without a
// password; the password waits on the emailed link and reaches the account only when that link is used.
import type { Kysely } from 'kysely';
import type { Account, AccountNoticeRow, AccountTokenRow, Database } from './schema.js';

export class SignupsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Creates the account (unverified, no password) with its first sign-up link, in one transaction;
   * false, writing nothing, when the address got an account meanwhile (a concurrent sign-up).
   */
  async createAccountWithLink(account: Account, link: AccountTokenRow): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('accounts')
        .values(account)
        .onConflict((oc) => oc.column('email').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!created) return false;
      await trx.insertInto('account_tokens').values(link).execute();
      return true;
    });
  }

  /** A new sign-up link for an account whose address is not verified; the older links stop working. */
  async replaceLink(link: AccountTokenRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('account_tokens')
        .set({ used_at: link.created_at })
        .where('account_id', '=', link.account_id)
        .where('purpose', '=', 'verify_email')
        .where('used_at', 'is', null)
        .execute();
      await trx.insertInto('account_tokens').values(link).execute();
    });
  }

  /**
   * Someone signed up with the address of a verified account: the account's notice of it, replacing the
   * older one (an attacker's sign-ups never bury the account's other notices). One transaction of two
   * statements, like the other outcomes of a sign-up, so their answers take as long.
   */
  async recordAttempt(notice: AccountNoticeRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('account_notices')
        .where('account_id', '=', notice.account_id)
        .where('kind', '=', notice.kind)
        .execute();
      await trx.insertInto('account_notices').values(notice).execute();
    });
  }

  /**
   * The address is proven for the first time (its sign-up or reset link was used): the account takes
   * that link's password and is verified, only if it was not verified yet (false otherwise, nothing
   * changed: a verified account's password is never replaced by a sign-up). Whatever an unproven
   * password could have opened before (sessions, API keys of an account made before sign-up links
   * carried the password) is closed, and the other sign-up links stop working.
   */
  async complete(accountId: string, passwordHash: string, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('accounts')
        .set({ password_hash: passwordHash, email_verified_at: now })
        .where('id', '=', accountId)
        .where('email_verified_at', 'is', null)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return false;
      await trx.deleteFrom('sessions').where('account_id', '=', accountId).execute();
      await trx
        .updateTable('api_keys')
        .set({ revoked_at: now })
        .where('account_id', '=', accountId)
        .where('revoked_at', 'is', null)
        .execute();
      await trx
        .updateTable('account_tokens')
        .set({ used_at: now })
        .where('account_id', '=', accountId)
        .where('purpose', '=', 'verify_email')
        .where('used_at', 'is', null)
        .execute();
      return true;
    });
  }
}
