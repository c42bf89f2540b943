// Deleting what is past its retention: messages with their events, delivery attempts and webhook
// pushes (cascading foreign keys), and the webhook attempt log.
import type { Kysely } from 'kysely';
import type { Database, Plan } from './schema.js';

export class RetentionRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Accounts on these plans, in pages (by id, after `afterId`). */
  async accountsOnPlans(plans: Plan[], afterId: string, limit: number): Promise<string[]> {
    if (plans.length === 0) return [];
    const rows = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('plan', 'in', plans)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Deletes up to `limit` of the account's messages created before `before` that are no longer in the
   * delivery queue (a message still being retried is kept until it ends). Answers how many went.
   */
  async deleteMessages(accountId: string, before: number, limit: number): Promise<number> {
    const batch = this.db
      .selectFrom('messages')
      .select('id')
      .where('account_id', '=', accountId)
      .where('created_at', '<', before)
      .where('next_attempt_at', 'is', null)
      .limit(limit);
    const r = await this.db.deleteFrom('messages').where('id', 'in', batch).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Deletes up to `limit` of the account's webhook attempts that started before `before`. */
  async deleteWebhookAttempts(accountId: string, before: number, limit: number): Promise<number> {
    const batch = this.db
      .selectFrom('webhook_attempts')
      .select('id')
      .where('account_id', '=', accountId)
      .where('started_at', '<', before)
      .limit(limit);
    const r = await this.db.deleteFrom('webhook_attempts').where('id', 'in', batch).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
