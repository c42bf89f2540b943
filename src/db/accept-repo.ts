// The one transaction that accepts messages: idempotency record, monthly usage, message row and its
// first event, for a whole batch of requests at once (group commit: one durable commit per batch).
import { sql, type Kysely, type Transaction } from 'kysely';
import { quotaNotice, quotaThresholdReached, type QuotaNotice } from '../accounts/quota-warning.js';
import type { Database, NewEvent, NewMessage } from './schema.js';

export interface AcceptItem {
  message: NewMessage;
  event: NewEvent;
  /** Counts toward the monthly cap (real sends); the cap and the month it applies to. */
  quota?: { month: string; cap: number };
  idempotency?: { key: string; requestHash: string; response: string; expiredBefore: number };
}

export type AcceptOutcome =
  /** `warned`: this send reached a quota threshold and its notice was stored (accounts/quota-warning.ts). */
  | { kind: 'accepted'; warned?: QuotaNotice }
  /** The key exists (unexpired) for this account: the caller looks up what it holds. */
  | { kind: 'idempotency_conflict' }
  | { kind: 'quota_exceeded' };

/** Writes a batch of accepted messages in one transaction; outcomes are in the order of `items`. */
export interface AcceptWriter {
  persist(items: AcceptItem[]): Promise<AcceptOutcome[]>;
}

export class AcceptRepo implements AcceptWriter {
  constructor(private readonly db: Kysely<Database>) {}

  async persist(items: AcceptItem[]): Promise<AcceptOutcome[]> {
    return this.db.transaction().execute(async (trx) => {
      const outcomes: AcceptOutcome[] = [];
      const accepted: AcceptItem[] = [];
      for (const item of items) {
        const outcome = await this.claim(trx, item);
        outcomes.push(outcome);
        if (outcome.kind === 'accepted') accepted.push(item);
      }
      if (accepted.length > 0) {
        await trx
          .insertInto('messages')
          .values(accepted.map((i) => i.message))
          .execute();
        await trx
          .insertInto('events')
          .values(accepted.map((i) => i.event))
          .execute();
      }
      return outcomes;
    });
  }

  /** Takes the item's idempotency key and quota unit, or says why it cannot be accepted. */
  private async claim(trx: Transaction<Database>, item: AcceptItem): Promise<AcceptOutcome> {
    const accountId = item.message.account_id;
    const idem = item.idempotency;
    if (idem) {
      // Insert the key, or take over one that has expired; a live key from another request wins.
      const taken = await trx
        .insertInto('idempotency_keys')
        .values({
          account_id: accountId,
          key: idem.key,
          request_hash: idem.requestHash,
          response: idem.response,
          created_at: item.message.created_at,
        })
        .onConflict((oc) =>
          oc
            .columns(['account_id', 'key'])
            .doUpdateSet({
              request_hash: idem.requestHash,
              response: idem.response,
              created_at: item.message.created_at,
            })
            .where('idempotency_keys.created_at', '<', idem.expiredBefore),
        )
        .returning('key')
        .executeTakeFirst();
      if (!taken) return { kind: 'idempotency_conflict' };
    }
    if (item.quota) {
      // One conditional increment: atomic on PostgreSQL under any number of API processes.
      const counted = await trx
        .insertInto('usage')
        .values({ account_id: accountId, month: item.quota.month, sent: 1 })
        .onConflict((oc) =>
          oc
            .columns(['account_id', 'month'])
            .doUpdateSet({ sent: sql`usage.sent + 1` })
            .where('usage.sent', '<', item.quota!.cap),
        )
        .returning('sent')
        .executeTakeFirst();
      if (!counted || counted.sent > item.quota.cap) {
        if (idem) {
          await trx
            .deleteFrom('idempotency_keys')
            .where('account_id', '=', accountId)
            .where('key', '=', idem.key)
            .execute();
        }
        return { kind: 'quota_exceeded' };
      }
      const threshold = quotaThresholdReached(Number(counted.sent), item.quota.cap);
      if (threshold) {
        const notice = quotaNotice(
          accountId,
          item.quota.month,
          threshold,
          item.quota.cap,
          item.message.created_at,
        );
        const stored = await trx
          .insertInto('account_notices')
          .values(notice)
          .onConflict((oc) => oc.column('id').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (stored) return { kind: 'accepted', warned: notice };
      }
    }
    return { kind: 'accepted' };
  }

  async findIdempotencyKey(
    accountId: string,
    key: string,
    notBefore: number,
  ): Promise<{ request_hash: string; response: string } | undefined> {
    return this.db
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'response'])
      .where('account_id', '=', accountId)
      .where('key', '=', key)
      .where('created_at', '>=', notBefore)
      .executeTakeFirst();
  }

  /** This month's count of sends against the cap. */
  async usage(accountId: string, month: string): Promise<number> {
    const row = await this.db
      .selectFrom('usage')
      .select('sent')
      .where('account_id', '=', accountId)
      .where('month', '=', month)
      .executeTakeFirst();
    return row?.sent ?? 0;
  }
}
