// Sending domains of an account.
import type { Kysely, Selectable } from 'kysely';
import type { Database, DomainsTable } from './schema.js';

export type DomainRow = Selectable<DomainsTable>;

export class DomainsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(domain: DomainRow): Promise<void> {
    await this.db.insertInto('domains').values(domain).execute();
  }

  /** Names (ASCII, lower case) of this account's verified domains. */
  async verifiedNames(accountId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('domains')
      .select('name')
      .where('account_id', '=', accountId)
      .where('status', '=', 'verified')
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
