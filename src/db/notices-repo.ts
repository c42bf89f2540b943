// Notices the dashboard shows an account (e.g. "your webhook endpoint was disabled"). Written by the
// part that has something to say, in its own transaction (see webhook-outbox-repo.ts).
import type { Kysely } from 'kysely';
import type { AccountNoticeRow, Database } from './schema.js';

export class NoticesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The account's notices, newest first. */
  async list(accountId: string, limit: number): Promise<AccountNoticeRow[]> {
    return this.db
      .selectFrom('account_notices')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
