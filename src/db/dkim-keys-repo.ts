// DKIM keys by domain. The newest key of a domain signs; older ones stay published until removed.
import type { Kysely } from 'kysely';
import type { Database, DkimKeyRow } from './schema.js';

export class DkimKeysRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: DkimKeyRow): Promise<void> {
    await this.db.insertInto('dkim_keys').values(row).execute();
  }

  /** The newest key for a domain, of this account (or of the service when accountId is null). */
  async current(domain: string, accountId: string | null): Promise<DkimKeyRow | undefined> {
    let q = this.db.selectFrom('dkim_keys').selectAll().where('domain', '=', domain);
    q = accountId === null ? q.where('account_id', 'is', null) : q.where('account_id', '=', accountId);
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  }
}
