// Webhook endpoints of an account. Always scoped by account.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.js';
import type { Database, WebhookRow } from './schema.js';

export type WebhookChange = Partial<
  Pick<
    WebhookRow,
    | 'url'
    | 'description'
    | 'event_types'
    | 'enabled'
    | 'disabled_reason'
    | 'secret'
    | 'previous_secret'
    | 'previous_secret_until'
    | 'updated_at'
  >
>;

export class WebhooksRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Inserts the endpoint unless the account already has `limit` of them; false when at the limit.
   * Concurrent creations (in any number of API processes) cannot pass the limit: SQLite has one writer
   * at a time; on PostgreSQL the account's row is locked first, because under READ COMMITTED two
   * transactions would each count without the other's insert.
   */
  async insertWithinLimit(row: WebhookRow, limit: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres') {
        await trx.selectFrom('accounts').select('id').where('id', '=', row.account_id).forUpdate().execute();
      }
      const r = await sql`insert into webhooks (id, account_id, url, description, event_types, enabled,
        disabled_reason, secret, previous_secret, previous_secret_until, created_at, updated_at)
      select ${row.id}, ${row.account_id}, ${row.url}, ${row.description}, ${row.event_types}, ${row.enabled},
        ${row.disabled_reason}, ${row.secret}, ${row.previous_secret}, ${row.previous_secret_until},
        ${row.created_at}, ${row.updated_at}
      where (select count(*) from webhooks where account_id = ${row.account_id}) < ${limit}`.execute(trx);
      return (r.numAffectedRows ?? 0n) > 0n;
    });
  }

  async list(accountId: string): Promise<WebhookRow[]> {
    return this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
  }

  async get(accountId: string, id: string): Promise<WebhookRow | undefined> {
    return this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Changes an endpoint of the account; the changed row, or undefined when there is none. */
  async update(accountId: string, id: string, change: WebhookChange): Promise<WebhookRow | undefined> {
    return this.db
      .updateTable('webhooks')
      .set(change)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** Deletes an endpoint with its outbox rows and attempts; false when the account has no such one. */
  async delete(accountId: string, id: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('webhooks')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    return r.numDeletedRows > 0n;
  }
}
