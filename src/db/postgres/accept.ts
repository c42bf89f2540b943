// The accept seam on PostgreSQL: suppression check, idempotency record, monthly usage, message row and
// its first event, for a whole batch of requests at once (one durable commit per batch).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AcceptItem, AcceptOutcome, QuotaNoticeAt } from '../accept-item.js';
import type { Database } from '../schema.js';
import type { AcceptTransaction } from '../seams.js';
import type { SuppressionFacts } from '../suppressions-repo.js';

/**
 * The accept transaction through Kysely (PostgreSQL). A batch costs a fixed number of round trips
 * whatever its size: one suppression look-up, one usage increment per account and month (or day, for
 * test sends), one insert of the messages and their events. Only items with an Idempotency-Key, and a batch that would cross its
 * account's cap, take a statement per item.
 */
export function postgresAcceptTransaction(db: Kysely<Database>, noticeAt: QuotaNoticeAt): AcceptTransaction {
  const accept = new PostgresAccept(db, noticeAt);
  return (items) => accept.persist(items);
}

class PostgresAccept {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly noticeAt: QuotaNoticeAt,
  ) {}

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
      // The sends still standing are stored before they are counted. Counting locks the account's usage
      // row until the commit, and another API process's batch for the account waits for that lock: with
      // the insert (the batch's largest statement) done first, only the increment's round trip and the
      // commit hold it (docs/benchmarks.md, "Where the time goes on PostgreSQL"). A send the cap then
      // refuses is taken out again, its event with it (on delete cascade): only a batch that reaches
      // its account's cap has any.
      const standing = items.flatMap((item, i) => (outcomes[i] === undefined ? [i] : []));
      if (standing.length > 0) {
        await trx
          .with('inserted', (db) => db.insertInto('messages').values(standing.map((i) => items[i]!.message)))
          .insertInto('events')
          .values(standing.map((i) => items[i]!.event))
          .execute();
      }
      await this.countQuota(trx, items, outcomes);
      const refused = standing.filter((i) => (outcomes[i] ??= { kind: 'accepted' }).kind !== 'accepted');
      if (refused.length > 0) {
        const ids = refused.map((i) => items[i]!.message.id);
        await trx.deleteFrom('messages').where('id', 'in', ids).execute();
      }
      return outcomes as AcceptOutcome[];
    });
  }

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
   * Counts the batch's sends against their monthly caps, then its test sends against their daily
   * allowances (countInPeriods). Usage rows are always taken in this order, so two batches cannot
   * deadlock on them.
   */
  private async countQuota(
    trx: Transaction<Database>,
    items: AcceptItem[],
    outcomes: (AcceptOutcome | undefined)[],
  ): Promise<void> {
    await countInPeriods(
      items,
      outcomes,
      (item) => item.quota && { period: item.quota.month, cap: item.quota.cap },
      async (accountId, month, n, cap) => {
        const row = await trx
          .insertInto('usage')
          .values({ account_id: accountId, month, sent: n })
          .onConflict((oc) =>
            oc
              .columns(['account_id', 'month'])
              .doUpdateSet({ sent: sql`usage.sent + ${n}` })
              .where(sql<boolean>`usage.sent + ${n} <= ${cap}`),
          )
          .returning('sent')
          .executeTakeFirst();
        return row && Number(row.sent);
      },
      async (item, sent) => {
        if (sent !== undefined) return this.accepted(trx, item, sent);
        await this.dropIdempotencyKey(trx, item);
        return { kind: 'quota_exceeded' };
      },
    );
    await countInPeriods(
      items,
      outcomes,
      (item) => item.testQuota && { period: item.testQuota.day, cap: item.testQuota.cap },
      async (accountId, day, n, cap) => {
        const row = await trx
          .insertInto('test_usage')
          .values({ account_id: accountId, day, sent: n })
          .onConflict((oc) =>
            oc
              .columns(['account_id', 'day'])
              .doUpdateSet({ sent: sql`test_usage.sent + ${n}` })
              .where(sql<boolean>`test_usage.sent + ${n} <= ${cap}`),
          )
          .returning('sent')
          .executeTakeFirst();
        return row && Number(row.sent);
      },
      async (item, sent) => {
        if (sent !== undefined) return { kind: 'accepted' };
        await this.dropIdempotencyKey(trx, item);
        return { kind: 'test_quota_exceeded' };
      },
    );
  }

  /** A refused send gives its Idempotency-Key back: a retry once the cap refills is a new request. */
  private async dropIdempotencyKey(trx: Transaction<Database>, item: AcceptItem): Promise<void> {
    if (!item.idempotency) return;
    await trx
      .deleteFrom('idempotency_keys')
      .where('account_id', '=', item.message.account_id)
      .where('key', '=', item.idempotency.key)
      .execute();
  }

  /** An accepted send that is the month's `sent`-th: stores its quota notice, if it makes one. */
  private async accepted(trx: Transaction<Database>, item: AcceptItem, sent: number): Promise<AcceptOutcome> {
    const m = item.message;
    const notice = this.noticeAt(m.account_id, item.quota!.month, sent, item.quota!.cap, m.created_at);
    if (!notice) return { kind: 'accepted' };
    const stored = await trx
      .insertInto('account_notices')
      .values(notice)
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return stored ? { kind: 'accepted', warned: notice } : { kind: 'accepted' };
  }
}

const key = (accountId: string, address: string) => `${accountId}\n${address}`;

/**
 * Counts sends against a cap per account and period (a month, a day), exactly under concurrency: each
 * account's sends in the batch are added by one conditional increment (`add`: the row's count plus n,
 * only while that stays within the cap; the new count, or undefined when it would not fit). If they do
 * not all fit, they are counted one by one, so exactly the sends that fit are accepted. `decide` turns
 * each send's place in its period (its count; undefined: refused) into its outcome. Accounts are taken
 * in a fixed order, so two batches locking the same counters cannot deadlock.
 */
async function countInPeriods(
  items: AcceptItem[],
  outcomes: (AcceptOutcome | undefined)[],
  capOf: (item: AcceptItem) => { period: string; cap: number } | undefined,
  add: (accountId: string, period: string, n: number, cap: number) => Promise<number | undefined>,
  decide: (item: AcceptItem, sent: number | undefined) => Promise<AcceptOutcome>,
): Promise<void> {
  const groups = new Map<string, number[]>();
  items.forEach((item, i) => {
    const counted = outcomes[i] ? undefined : capOf(item);
    if (!counted) return;
    const k = `${item.message.account_id}\n${counted.period}`;
    const group = groups.get(k);
    if (group) group.push(i);
    else groups.set(k, [i]);
  });
  for (const k of [...groups.keys()].sort()) {
    const indexes = groups.get(k)!;
    const first = items[indexes[0]!]!;
    const { period, cap } = capOf(first)!;
    const accountId = first.message.account_id;
    const n = indexes.length;
    const end = n <= cap ? await add(accountId, period, n, cap) : undefined;
    if (end !== undefined) {
      for (const [j, i] of indexes.entries()) outcomes[i] = await decide(items[i]!, end - n + 1 + j);
      continue;
    }
    for (const i of indexes) {
      const sent = await add(accountId, period, 1, cap);
      outcomes[i] = await decide(items[i]!, sent !== undefined && sent <= cap ? sent : undefined);
    }
  }
}
