// Sending domains of an account, their verification state, and the checker's schedule.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Dialect } from './database.js';
import {
  SENDABLE_DOMAIN_STATUSES,
  type AccountState,
  type Database,
  type DkimKeyRow,
  type DomainRow,
  type DomainStatus,
  type DomainsTable,
  type DomainTls,
  type NewDomain,
} from './schema.js';
import { claimLeased } from './lease-claim.js';

export type { DomainRow };

export type CreateDomainResult = 'created' | 'exists' | 'plan_limit';

/** What a check changes on a domain row. */
export type DomainCheckUpdate = Pick<
  DomainsTable,
  | 'status'
  | 'verified_at'
  | 'verification_started_at'
  | 'failing_since'
  | 'last_checked_at'
  | 'findings'
  | 'next_check_at'
>;

export interface RecordCheckResult {
  /** false: the row changed under the check (deleted, re-verified, lease lost); nothing was written. */
  applied: boolean;
  /** The account's state after the write, when it changed. */
  accountStateChanged: AccountState | undefined;
}

export class DomainsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect = 'sqlite',
  ) {}

  async insert(domain: NewDomain): Promise<void> {
    await this.db.insertInto('domains').values(domain).execute();
  }

  /**
   * Adds a domain with its DKIM key, unless the account has it already or has `limit` domains. The
   * account row is locked on PostgreSQL so that concurrent adds cannot both pass the limit (SQLite has
   * one writer at a time).
   */
  async create(domain: NewDomain, key: DkimKeyRow, limit: number): Promise<CreateDomainResult> {
    return this.db.transaction().execute(async (trx) => {
      let lock = trx.selectFrom('accounts').select('id').where('id', '=', domain.account_id);
      if (this.dialect === 'postgres') lock = lock.forUpdate();
      await lock.execute();
      const names = await trx
        .selectFrom('domains')
        .select('name')
        .where('account_id', '=', domain.account_id)
        .execute();
      if (names.some((n) => n.name === domain.name)) return 'exists';
      if (names.length >= limit) return 'plan_limit';
      await trx.insertInto('domains').values(domain).execute();
      await trx.insertInto('dkim_keys').values(key).execute();
      return 'created';
    });
  }

  async list(accountId: string): Promise<DomainRow[]> {
    return this.db
      .selectFrom('domains')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async get(accountId: string, id: string): Promise<DomainRow | undefined> {
    return this.db
      .selectFrom('domains')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The status of the account's domain `name` (ASCII), read now; undefined when it has none. */
  async statusOf(accountId: string, name: string): Promise<DomainStatus | undefined> {
    const row = await this.db
      .selectFrom('domains')
      .select('status')
      .where('account_id', '=', accountId)
      .where('name', '=', name)
      .executeTakeFirst();
    return row?.status;
  }

  /** Deletes a domain and its DKIM keys; answers the account's state when that changed. */
  async delete(
    accountId: string,
    id: string,
  ): Promise<{ deleted: boolean; accountStateChanged: AccountState | undefined }> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .deleteFrom('domains')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .returning('name')
        .executeTakeFirst();
      if (!row) return { deleted: false, accountStateChanged: undefined };
      await trx
        .deleteFrom('dkim_keys')
        .where('account_id', '=', accountId)
        .where('domain', '=', row.name)
        .execute();
      return { deleted: true, accountStateChanged: await syncAccountState(trx, accountId) };
    });
  }

  /**
   * Leases up to `limit` domains due for a check to `owner` until `leaseUntil` (as the message queue
   * does: SKIP LOCKED on PostgreSQL lets many checkers claim at once; SQLite's single writer makes the
   * statement atomic). An expired lease makes the domain due again.
   */
  async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<DomainRow[]> {
    return claimLeased<DomainRow>(
      this.db,
      this.dialect,
      { table: 'domains', due: 'next_check_at', owner: 'check_lease_owner', until: 'check_lease_until' },
      owner,
      now,
      leaseUntil,
      limit,
    );
  }

  /**
   * Writes a check's result if the row is still as the check saw it: the same status and, for a
   * scheduled check (`owner` set), the lease still held by `owner`. Then brings the account's state in line with its
   * domains (production while one can send), in the same transaction.
   */
  async recordCheck(
    row: DomainRow,
    owner: string | null,
    update: DomainCheckUpdate,
  ): Promise<RecordCheckResult> {
    return this.db.transaction().execute(async (trx) => {
      let q = trx
        .updateTable('domains')
        .set({ ...update, check_lease_owner: null, check_lease_until: null })
        .where('id', '=', row.id)
        .where('status', '=', row.status);
      // A manual check (owner null) wins: it clears the lease, so a scheduled check of the same
      // domain finishing later writes nothing.
      if (owner !== null) q = q.where('check_lease_owner', '=', owner);
      const r = await q.executeTakeFirst();
      if (r.numUpdatedRows === 0n) return { applied: false, accountStateChanged: undefined };
      return { applied: true, accountStateChanged: await syncAccountState(trx, row.account_id) };
    });
  }

  /**
   * Brings the domain's next check to `at` unless it comes sooner: a DKIM key was added that waits
   * for its record (a domain never checked again, failed, gets that check too).
   */
  async checkBy(accountId: string, id: string, at: number): Promise<void> {
    await this.db
      .updateTable('domains')
      .set({ next_check_at: at })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where((eb) => eb.or([eb('next_check_at', 'is', null), eb('next_check_at', '>', at)]))
      .execute();
  }

  /** Gives back every lease `owner` holds (shutdown): those domains are due again at once. */
  async releaseLeases(owner: string): Promise<void> {
    await this.db
      .updateTable('domains')
      .set({ check_lease_owner: null, check_lease_until: null })
      .where('check_lease_owner', '=', owner)
      .execute();
  }

  /**
   * The domains this account may send from: names (ASCII, lower case) with their expiry for mail
   * (expire_after, seconds or null), in one query (domains/verified-domains.ts caches it).
   */
  async sendable(
    accountId: string,
  ): Promise<{ name: string; expire_after: number | null; tls: DomainTls }[]> {
    const rows = await this.db
      .selectFrom('domains')
      .select(['name', 'expire_after', 'tls'])
      .where('account_id', '=', accountId)
      .where('status', 'in', SENDABLE_DOMAIN_STATUSES)
      .execute();
    return rows.map((r) => ({
      name: r.name,
      expire_after: r.expire_after === null ? null : Number(r.expire_after),
      tls: r.tls,
    }));
  }

  /**
   * Sets the domain's settings given (expire_after, tls); false when the account has no such domain. A
   * new expire_after applies to the domain's mail already waiting too: its deadlines (messages.deadline_at,
   * ARCHITECTURE.md "Expiry") are written again from their acceptance, in the same transaction.
   */
  async setSettings(
    accountId: string,
    id: string,
    settings: { expire_after?: number | null; tls?: DomainTls },
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('domains')
        .set(settings)
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .returning('name')
        .executeTakeFirst();
      if (!row) return false;
      const expireAfter = settings.expire_after;
      if (expireAfter !== undefined) {
        await trx
          .updateTable('messages')
          .set({
            deadline_at:
              expireAfter === null ? null : sql<number>`${sql.ref('created_at')} + ${expireAfter * 1000}`,
          })
          .where('id', 'in', (eb) => {
            const waiting = eb
              .selectFrom('messages')
              .select('id')
              .where('account_id', '=', accountId)
              .where('next_attempt_at', 'is not', null)
              .where('from_domain', '=', row.name);
            // Locked in id order, as a record batch's update locks them: the two never deadlock.
            return this.dialect === 'postgres' ? waiting.orderBy('id').forUpdate() : waiting;
          })
          .execute();
      }
      return true;
    });
  }

  /**
   * The names (ASCII, lower case) of every account's sendable domains, each once, the first `limit` by
   * name (blocklists/targets.ts: their return-path names are looked up in blocklists).
   */
  async sendableNames(limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('domains')
      .select('name')
      .distinct()
      .where('status', 'in', SENDABLE_DOMAIN_STATUSES)
      .orderBy('name')
      .limit(limit)
      .execute();
    return rows.map((r) => r.name);
  }

  /** How many domains the account has, whatever their status (the plan's domain limit counts them all). */
  async count(accountId: string): Promise<number> {
    const row = await this.db
      .selectFrom('domains')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }
}

/** Sets the account's state from its domains; answers the new state when it changed. */
async function syncAccountState(
  trx: Transaction<Database>,
  accountId: string,
): Promise<AccountState | undefined> {
  const sendable = await trx
    .selectFrom('domains')
    .select('id')
    .where('account_id', '=', accountId)
    .where('status', 'in', SENDABLE_DOMAIN_STATUSES)
    .limit(1)
    .executeTakeFirst();
  const state: AccountState = sendable ? 'production' : 'sandbox';
  const r = await trx
    .updateTable('accounts')
    .set({ state })
    .where('id', '=', accountId)
    .where('state', '!=', state)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n ? state : undefined;
}
