// Sign-up links (accounts/signup.ts): an account at a new address starts unverified and without a
// password; the password waits on the emailed link and reaches the account only when that link is used.
import type { Kysely } from 'kysely';
import { claimAddress } from './address-claim.js';
import type { Dialect } from './database.js';
import type { Account, AccountNoticeRow, AccountTokenRow, Database } from './schema.js';

export class SignupsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Creates the account (unverified, no password) with its first sign-up link, in one transaction;
   * false, writing nothing, when the address got an account or an invited membership meanwhile (a
   * concurrent sign-up or invitation).
   */
  async createAccountWithLink(account: Account, link: AccountTokenRow): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // An invitation of the address since the caller looked (address-claim.ts): the caller looks again.
      if (!(await claimAddress(trx, this.dialect, account.email, 'member'))) return false;
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
   * A sign-up link is used: the account takes that sign-up's password and is verified, only while the
   * address is unproven and the account has no password (false otherwise, nothing changed: a sign-up
   * never replaces a password, whoever set it). Ends what the account had before (`prove`).
   */
  async completeSignup(accountId: string, passwordHash: string, now: number): Promise<boolean> {
    return this.prove(accountId, passwordHash, now, true);
  }

  /**
   * A reset link proves an unverified address for the first time: the account takes the password chosen
   * at the link, whatever it had, and is verified (false, nothing changed, when it was verified already).
   * Ends what the account had before (`prove`).
   */
  async completeByReset(accountId: string, passwordHash: string, now: number): Promise<boolean> {
    return this.prove(accountId, passwordHash, now, false);
  }

  /**
   * The first proof of the address, in one transaction. Whatever was made before it was made by someone
   * who knew a password nobody had proven (accounts signed up before sign-up links carried the
   * password, operator accounts made unverified), so it all ends: sessions, API keys, remembered
   * browsers (device cookies), and the other sign-up links. The caller starts the prover's session
   * after, if any.
   */
  private async prove(
    accountId: string,
    passwordHash: string,
    now: number,
    onlyWithoutPassword: boolean,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      let update = trx
        .updateTable('accounts')
        .set({ password_hash: passwordHash, email_verified_at: now })
        .where('id', '=', accountId)
        .where('email_verified_at', 'is', null);
      if (onlyWithoutPassword) update = update.where('password_hash', 'is', null);
      const updated = await update.executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return false;
      await trx.deleteFrom('sessions').where('account_id', '=', accountId).execute();
      await trx.deleteFrom('login_devices').where('account_id', '=', accountId).execute();
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
