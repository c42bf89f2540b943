// Accounts and their API keys: every question the rest of txmail asks about them.
import type { Kysely } from 'kysely';
import { claimAddress } from './address-claim.js';
import type { Dialect } from './database.js';
import type { Account, AccountState, ApiKeyRow, Database, Plan } from './schema.js';

export interface ApiKeyWithAccount {
  key: ApiKeyRow;
  account: Account;
}

export class AccountsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * A new account; false, writing nothing, when its address has an invited membership (a concurrent
   * invitation: address-claim.ts). Another account at the address is the unique index's error.
   */
  async create(account: Account): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await claimAddress(trx, this.dialect, account.email, 'member'))) return false;
      await trx.insertInto('accounts').values(account).execute();
      return true;
    });
  }

  async findById(id: string): Promise<Account | undefined> {
    return this.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async findByEmail(email: string): Promise<Account | undefined> {
    return this.db
      .selectFrom('accounts')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
  }

  /** Emails counted toward the monthly cap in `month` (YYYY-MM). */
  async monthUsage(accountId: string, month: string): Promise<number> {
    const row = await this.db
      .selectFrom('usage')
      .select('sent')
      .where('account_id', '=', accountId)
      .where('month', '=', month)
      .executeTakeFirst();
    return Number(row?.sent ?? 0);
  }

  /** Test sends counted toward the daily allowance on `day` (YYYY-MM-DD, UTC). */
  async dayTestSends(accountId: string, day: string): Promise<number> {
    const row = await this.db
      .selectFrom('test_usage')
      .select('sent')
      .where('account_id', '=', accountId)
      .where('day', '=', day)
      .executeTakeFirst();
    return Number(row?.sent ?? 0);
  }

  /** Days a final message's content is kept (null: kept); false when there is no such account. */
  async setContentRetention(id: string, days: number | null): Promise<boolean> {
    const r = await this.db
      .updateTable('accounts')
      .set({ content_retention_days: days })
      .where('id', '=', id)
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  async setPlan(id: string, plan: Plan): Promise<void> {
    await this.db.updateTable('accounts').set({ plan }).where('id', '=', id).execute();
  }

  async setState(id: string, state: AccountState): Promise<void> {
    await this.db.updateTable('accounts').set({ state }).where('id', '=', id).execute();
  }

  async setSuspended(id: string, suspendedAt: number | null): Promise<void> {
    await this.db.updateTable('accounts').set({ suspended_at: suspendedAt }).where('id', '=', id).execute();
  }

  /**
   * `replacing`: only while the stored hash is still that one (log-in storing the same password again
   * at today's cost never undoes a password set meanwhile).
   */
  async setPassword(id: string, passwordHash: string, replacing?: string): Promise<void> {
    let q = this.db.updateTable('accounts').set({ password_hash: passwordHash }).where('id', '=', id);
    if (replacing !== undefined) q = q.where('password_hash', '=', replacing);
    await q.execute();
  }

  /** Records that the signup address is proven (first time only). */
  async markEmailVerified(id: string, at: number): Promise<void> {
    await this.db
      .updateTable('accounts')
      .set({ email_verified_at: at })
      .where('id', '=', id)
      .where('email_verified_at', 'is', null)
      .execute();
  }

  async createApiKey(key: ApiKeyRow): Promise<void> {
    await this.db.insertInto('api_keys').values(key).execute();
  }

  /** The live (not revoked) key with this hash, with its account. */
  async findApiKeyByHash(hash: string): Promise<ApiKeyWithAccount | undefined> {
    const key = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!key) return undefined;
    const account = await this.findById(key.account_id);
    return account && { key, account };
  }

  /** The account's keys, newest first, each with the address of the invited member who made it (or null). */
  async listApiKeys(accountId: string): Promise<(ApiKeyRow & { made_by: string | null })[]> {
    return this.db
      .selectFrom('api_keys as k')
      .leftJoin('members as m', 'm.id', 'k.member_id')
      .selectAll('k')
      .select('m.email as made_by')
      .where('k.account_id', '=', accountId)
      .orderBy('k.created_at', 'desc')
      .execute();
  }

  /** Revokes a key of this account; false when the account has no such live key. */
  async revokeApiKey(accountId: string, keyId: string, at: number): Promise<boolean> {
    const r = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('account_id', '=', accountId)
      .where('id', '=', keyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  async touchApiKey(keyId: string, at: number): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', keyId).execute();
  }
}
