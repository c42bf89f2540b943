// The suppression list: addresses an account must not send to again. Always scoped by account.
import type { Kysely } from 'kysely';
import type { Database, SuppressionRow } from './schema.js';

export type SuppressionFacts = Pick<SuppressionRow, 'reason' | 'created_at'>;

export interface SuppressionFilter {
  address?: string;
  /** Only entries older than this id (the cursor: ids are time-ordered). */
  beforeId?: string;
}

export class SuppressionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

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
