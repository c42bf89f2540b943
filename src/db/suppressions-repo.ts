// The suppression list: addresses an account must not send to again. Always scoped by account.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.js';
import type { Database, SuppressionRow } from './schema.js';

export type SuppressionFacts = Pick<SuppressionRow, 'reason' | 'created_at'>;

export interface SuppressionFilter {
  address?: string;
  /** Only entries older than this id (the cursor: ids are time-ordered). */
  beforeId?: string;
}

/** Addresses that start with `prefix` (as stored: lower case, domain in ASCII), alphabetically. */
export interface SuppressionPrefix {
  prefix: string;
  /** Only addresses after this one (the cursor). */
  after?: string;
}

/**
 * The highest code point: `prefix + TOP` is above every string that starts with `prefix`, in SQLite's
 * byte-wise (BINARY) order of UTF-8.
 */
const TOP = String.fromCodePoint(0x10ffff);

export class SuppressionsRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** Is this address suppressed for this account? One indexed look-up. */
  async find(accountId: string, address: string): Promise<SuppressionFacts | undefined> {
    return this.db
      .selectFrom('suppressions')
      .select(['reason', 'created_at'])
      .where('account_id', '=', accountId)
      .where('address', '=', address)
      .executeTakeFirst();
  }

  async get(accountId: string, address: string): Promise<SuppressionRow | undefined> {
    return this.db
      .selectFrom('suppressions')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('address', '=', address)
      .executeTakeFirst();
  }

  /** Newest first, at most `limit`. */
  async list(accountId: string, filter: SuppressionFilter, limit: number): Promise<SuppressionRow[]> {
    let q = this.db.selectFrom('suppressions').selectAll().where('account_id', '=', accountId);
    if (filter.address !== undefined) q = q.where('address', '=', filter.address);
    if (filter.beforeId !== undefined) q = q.where('id', '<', filter.beforeId);
    return q.orderBy('id', 'desc').limit(limit).execute();
  }

  /**
   * At most `limit` addresses that start with a prefix, alphabetically: a walk of the account's
   * (account_id, address) index from the prefix on, which stops at the page's end, however many
   * addresses the account has suppressed. On SQLite the prefix's range bounds the walk (byte-wise
   * order); PostgreSQL's order follows the database's collation, where a range of text is no prefix,
   * so there `starts_with` decides (and the walk, off the event loop, may read the account's entries).
   */
  async listByPrefix(accountId: string, filter: SuppressionPrefix, limit: number): Promise<SuppressionRow[]> {
    let q = this.db.selectFrom('suppressions').selectAll().where('account_id', '=', accountId);
    if (this.dialect === 'sqlite') {
      q = q.where('address', '>=', filter.prefix).where('address', '<', filter.prefix + TOP);
    } else {
      q = q.where(sql<boolean>`starts_with(address, ${filter.prefix})`);
    }
    if (filter.after !== undefined) q = q.where('address', '>', filter.after);
    return q.orderBy('address').limit(limit).execute();
  }

  /** Adds the entry unless the address is already suppressed; returns the entry that stands. */
  async add(row: SuppressionRow): Promise<{ row: SuppressionRow; created: boolean }> {
    const inserted = await this.db
      .insertInto('suppressions')
      .values(row)
      .onConflict((oc) => oc.columns(['account_id', 'address']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { row: inserted, created: true };
    return { row: (await this.get(row.account_id, row.address))!, created: false };
  }

  async remove(accountId: string, address: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('suppressions')
      .where('account_id', '=', accountId)
      .where('address', '=', address)
      .executeTakeFirst();
    return r.numDeletedRows > 0n;
  }
}
