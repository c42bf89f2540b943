// DKIM keys by domain and owner (an account, or the service when accountId is null). Active keys sign
// (one RSA key, and an Ed25519 key beside it); a pending key waits for its record in DNS and then takes
// over from the active key of its algorithm, which is retired (ARCHITECTURE.md, "DKIM").
import type { Kysely, UpdateQueryBuilder, UpdateResult } from 'kysely';
import type { Database, DkimAlgorithmName, DkimKeyRow, DkimRecordStatus } from './schema.js';

export class DkimKeysRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: DkimKeyRow): Promise<void> {
    await this.db.insertInto('dkim_keys').values(row).execute();
  }

  /** The active RSA key of a domain: the one that signs first and that the domain is verified by. */
  async current(domain: string, accountId: string | null): Promise<DkimKeyRow | undefined> {
    return this.owned(domain, accountId)
      .where('status', '=', 'active')
      .where('algorithm', '=', 'rsa-sha256')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Every key of a domain, newest first. */
  async all(domain: string, accountId: string | null): Promise<DkimKeyRow[]> {
    return this.owned(domain, accountId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  /** The active keys of a domain (those that sign), newest first. */
  async active(domain: string, accountId: string | null): Promise<DkimKeyRow[]> {
    return this.owned(domain, accountId)
      .where('status', '=', 'active')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /**
   * The public half of the key of ours named by a DKIM signature's d= and s= (any status: a report may
   * come after the key has retired), for a check of our signature on a report's copy of a message.
   */
  async publicKey(
    domain: string,
    selector: string,
  ): Promise<Pick<DkimKeyRow, 'public_key' | 'algorithm' | 'account_id'> | undefined> {
    return this.db
      .selectFrom('dkim_keys')
      .select(['public_key', 'algorithm', 'account_id'])
      .where('domain', '=', domain)
      .where('selector', '=', selector)
      .executeTakeFirst();
  }

  /** Whether a selector is already used for this domain name (by any account or the service). */
  async selectorTaken(domain: string, selector: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('dkim_keys')
      .select('id')
      .where('domain', '=', domain)
      .where('selector', '=', selector)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Notes what the last look-up of a key's record found. */
  async recordLookup(
    id: string,
    at: number,
    status: DkimRecordStatus,
    problem: string | null,
  ): Promise<void> {
    await this.db
      .updateTable('dkim_keys')
      .set({ record_checked_at: at, record_status: status, record_problem: problem })
      .where('id', '=', id)
      .execute();
  }

  /**
   * A pending key becomes active and the active keys of its algorithm are retired, in one transaction;
   * false when the key is no longer pending (another process promoted it, or it was retired).
   */
  async promote(key: DkimKeyRow, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('dkim_keys')
        .set({ status: 'active', activated_at: now })
        .where('id', '=', key.id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (changed(r) === 0) return false;
      await this.ownedUpdate(trx, key.domain, key.account_id)
        .set({ status: 'retired', retired_at: now })
        .where('algorithm', '=', key.algorithm)
        .where('status', '=', 'active')
        .where('id', '!=', key.id)
        .execute();
      return true;
    });
  }

  /** Retires every active and pending key of one algorithm (Ed25519 turned off); answers how many. */
  async retireAlgorithm(
    domain: string,
    accountId: string | null,
    algorithm: DkimAlgorithmName,
    now: number,
  ): Promise<number> {
    const r = await this.ownedUpdate(this.db, domain, accountId)
      .set({ status: 'retired', retired_at: now })
      .where('algorithm', '=', algorithm)
      .where('status', 'in', ['active', 'pending'])
      .executeTakeFirst();
    return changed(r);
  }

  private owned(domain: string, accountId: string | null) {
    const q = this.db.selectFrom('dkim_keys').selectAll().where('domain', '=', domain);
    return accountId === null ? q.where('account_id', 'is', null) : q.where('account_id', '=', accountId);
  }

  private ownedUpdate(
    db: Kysely<Database>,
    domain: string,
    accountId: string | null,
  ): UpdateQueryBuilder<Database, 'dkim_keys', 'dkim_keys', UpdateResult> {
    const q = db.updateTable('dkim_keys').where('domain', '=', domain);
    return accountId === null ? q.where('account_id', 'is', null) : q.where('account_id', '=', accountId);
  }
}

function changed(r: UpdateResult | undefined): number {
  return Number(r?.numUpdatedRows ?? 0);
}
