// Browsers that have logged in to an account (accounts/login-devices.ts), looked up by the SHA-256 of
// the id in their device cookie.
import type { Kysely } from 'kysely';
import type { Database, LoginDeviceRow } from './schema.js';

export class LoginDevicesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Remembers the browser for the account until `expiresAt`; an id it already holds for this account is
   * pushed forward (one upsert; an id of another account is never taken over: it stays as it was).
   */
  async remember(device: LoginDeviceRow): Promise<void> {
    await this.db
      .insertInto('login_devices')
      .values(device)
      .onConflict((oc) =>
        oc
          .column('id_hash')
          .doUpdateSet({ expires_at: device.expires_at })
          .where('login_devices.account_id', '=', device.account_id),
      )
      .execute();
  }

  /** Whether the unexpired device is bound to the account whose signup address is `email` (lower case). */
  async belongsTo(idHash: string, email: string, now: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('login_devices')
      .innerJoin('accounts', 'accounts.id', 'login_devices.account_id')
      .select('login_devices.id_hash')
      .where('login_devices.id_hash', '=', idHash)
      .where('login_devices.expires_at', '>', now)
      .where('accounts.email', '=', email)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Forgets every device of the account (its password changed, or its address was proven). */
  async forgetAll(accountId: string): Promise<void> {
    await this.db.deleteFrom('login_devices').where('account_id', '=', accountId).execute();
  }
}
