// The one transaction that accepts messages: idempotency record, monthly usage, message row and its
// first event, for a whole batch of requests at once (group commit: one durable commit per batch).
import { sql, type Kysely, type Transaction } from 'kysely';
import { quotaNotice, quotaThresholdReached, type QuotaNotice } from '../accounts/quota-warning.js';
import type { Database, NewEvent, NewMessage } from './schema.js';
import type { SuppressionFacts } from './suppressions-repo.js';

export interface AcceptItem {
  message: NewMessage;
  event: NewEvent;
  /** Counts toward the monthly cap (real sends); the cap and the month it applies to. */
  quota?: { month: string; cap: number };
  idempotency?: { key: string; requestHash: string; response: string; expiredBefore: number };
  /**
   * Refuse the send if this address (lower case) is suppressed for the account. Checked inside the
   * transaction that stores the message, so a suppression committed before it is always seen.
   */
  refuseSuppressed?: string;
}

export type AcceptOutcome =
  /** `warned`: this send reached a quota threshold and its notice was stored (accounts/quota-warning.ts). */
  | { kind: 'accepted'; warned?: QuotaNotice }
  /** The key exists (unexpired) for this account: the caller looks up what it holds. */
  | { kind: 'idempotency_conflict' }
  | { kind: 'quota_exceeded' }
  | { kind: 'suppressed'; suppression: SuppressionFacts };

/** Writes a batch of accepted messages in one transaction; outcomes are in the order of `items`. */
export interface AcceptWriter {
  persist(items: AcceptItem[]): Promise<AcceptOutcome[]>;
  close(): Promise<void>;
}

/**
 * The accept transaction through Kysely (PostgreSQL). A batch costs a fixed number of round trips
 * whatever its size: one suppression look-up, one usage increment per account and month, one insert
 * each for messages and events. Only items with an Idempotency-Key, and a batch that would cross its
 * account's cap, take a statement per item.
 */
export class AcceptRepo implements AcceptWriter {
  constructor(private readonly db: Kysely<Database>) {}

  async persist(items: AcceptItem[]): Promise<AcceptOutcome[]> {
    return this.db.transaction().execute(async (trx) => {
      const outcomes: (AcceptOutcome | undefined)[] = new Array(items.length);
      const suppressed = await this.suppressions(trx, items);
      items.forEach((item, i) => {
        const found =
          item.refuseSuppressed && suppressed.get(key(item.message.account_id, item.refuseSuppressed));
        if (found) outcomes[i] = { kind: 'suppressed', suppression: found };
      });
      for (const [i, item] of items.entries()) {
        if (outcomes[i] || !item.idempotency) continue;
        if (!(await this.takeIdempotencyKey(trx, item, item.idempotency))) {
          outcomes[i] = { kind: 'idempotency_conflict' };
        }
      }
      await this.countQuota(trx, items, outcomes);
      const accepted = items.filter((_, i) => {
        outcomes[i] ??= { kind: 'accepted' };
        return outcomes[i].kind === 'accepted';
      });
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
      return outcomes as AcceptOutcome[];
    });
  }

  async close(): Promise<void> {}

  /** The suppressions among the batch's recipients, by account and address: one statement. */
  private async suppressions(
    trx: Transaction<Database>,
    items: AcceptItem[],
  ): Promise<Map<string, SuppressionFacts>> {
    const asked = items.filter((i) => i.refuseSuppressed !== undefined);
    const found = new Map<string, SuppressionFacts>();
    if (asked.length === 0) return found;
    const rows = await trx
      .selectFrom('suppressions')
      .select(['account_id', 'address', 'reason', 'created_at'])
      .where('account_id', 'in', [...new Set(asked.map((i) => i.message.account_id))])
      .where('address', 'in', [...new Set(asked.map((i) => i.refuseSuppressed!))])
      .execute();
    for (const r of rows)
      found.set(key(r.account_id, r.address), { reason: r.reason, created_at: r.created_at });
    return found;
  }

  /** Inserts the key, or takes over one that has expired; a live key from another request wins. */
  private async takeIdempotencyKey(
    trx: Transaction<Database>,
    item: AcceptItem,
    idem: NonNullable<AcceptItem['idempotency']>,
  ): Promise<boolean> {
    const taken = await trx
      .insertInto('idempotency_keys')
      .values({
        account_id: item.message.account_id,
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
    return taken !== undefined;
  }

  /**
   * Counts the batch's sends against their monthly caps. Each account's sends are added in one
   * conditional increment; if that would pass the cap, they are counted one by one instead, so exactly
   * the sends that fit are accepted. Accounts are taken in a fixed order, so two batches locking the
   * same usage rows cannot deadlock.
   */
  private async countQuota(
    trx: Transaction<Database>,
    items: AcceptItem[],
    outcomes: (AcceptOutcome | undefined)[],
  ): Promise<void> {
    const groups = new Map<string, number[]>();
    items.forEach((item, i) => {
      if (outcomes[i] || !item.quota) return;
      const k = `${item.message.account_id}\n${item.quota.month}`;
      groups.set(k, [...(groups.get(k) ?? []), i]);
    });
    for (const k of [...groups.keys()].sort()) {
      const indexes = groups.get(k)!;
      const first = items[indexes[0]!]!;
      const accountId = first.message.account_id;
      const { month, cap } = first.quota!;
      const n = indexes.length;
      const counted =
        n <= cap
          ? await trx
              .insertInto('usage')
              .values({ account_id: accountId, month, sent: n })
              .onConflict((oc) =>
                oc
                  .columns(['account_id', 'month'])
                  .doUpdateSet({ sent: sql`usage.sent + ${n}` })
                  .where(sql<boolean>`usage.sent + ${n} <= ${cap}`),
              )
              .returning('sent')
              .executeTakeFirst()
          : undefined;
      if (counted) {
        const end = Number(counted.sent);
        for (const [j, i] of indexes.entries()) {
          outcomes[i] = await this.accepted(trx, items[i]!, end - n + 1 + j);
        }
        continue;
      }
      for (const i of indexes) outcomes[i] = await this.countOne(trx, items[i]!);
    }
  }

  /** One send counted on its own: accepted, or refused when the cap is used up. */
  private async countOne(trx: Transaction<Database>, item: AcceptItem): Promise<AcceptOutcome> {
    const accountId = item.message.account_id;
    const quota = item.quota!;
    const counted = await trx
      .insertInto('usage')
      .values({ account_id: accountId, month: quota.month, sent: 1 })
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'month'])
          .doUpdateSet({ sent: sql`usage.sent + 1` })
          .where('usage.sent', '<', quota.cap),
      )
      .returning('sent')
      .executeTakeFirst();
    if (!counted || counted.sent > quota.cap) {
      if (item.idempotency) {
        await trx
          .deleteFrom('idempotency_keys')
          .where('account_id', '=', accountId)
          .where('key', '=', item.idempotency.key)
          .execute();
      }
      return { kind: 'quota_exceeded' };
    }
    return this.accepted(trx, item, Number(counted.sent));
  }

  /** An accepted send that is the month's `sent`-th: stores the quota notice if it reaches a threshold. */
  private async accepted(trx: Transaction<Database>, item: AcceptItem, sent: number): Promise<AcceptOutcome> {
    const quota = item.quota!;
    const threshold = quotaThresholdReached(sent, quota.cap);
    if (!threshold) return { kind: 'accepted' };
    const notice = quotaNotice(
      item.message.account_id,
      quota.month,
      threshold,
      quota.cap,
      item.message.created_at,
    );
    const stored = await trx
      .insertInto('account_notices')
      .values(notice)
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return stored ? { kind: 'accepted', warned: notice } : { kind: 'accepted' };
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

const key = (accountId: string, address: string) => `${accountId}\n${address}`;
