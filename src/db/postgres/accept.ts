// The accept seam on PostgreSQL: suppression check, idempotency record, monthly usage, message row and
// its first event, for a whole batch of requests at once (one durable commit per batch).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { AcceptItem, AcceptOutcome, QuotaNoticeAt } from '../accept-item.js';
import type { Database } from '../schema.js';
import type { AcceptTransaction } from '../seams.js';
import type { SuppressionFacts } from '../suppressions-repo.js';

/**
 * The accept transaction through Kysely (PostgreSQL). A batch costs a fixed number of round trips
 * whatever its size: one suppression look-up, one insert of the messages and their events, one usage
 * increment per account and month (or day, for test sends). Only items with an Idempotency-Key, and a
 * batch that would cross its account's cap, take a statement per item; a batch with refused sends
 * takes one more to delete them, and one of a period found full stores its accepted sends last.
 */
export function postgresAcceptTransaction(db: Kysely<Database>, noticeAt: QuotaNoticeAt): AcceptTransaction {
  const accept = new PostgresAccept(db, noticeAt);
  return (items) => accept.persist(items);
}

class PostgresAccept {
  /**
   * Periods found full (`fullKey`), with the cap they were full at. Their sends are counted before they
   * are stored, as they are mostly refused: storing each first would write it and delete it again, for
   * every retry of a client that keeps sending past its cap. Only the order depends on it; the count
   * decides, so a period wrongly taken for full (its cap since raised) costs nothing but that order.
   */
  private readonly full = new Map<string, number>();

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
      // the insert (the batch's largest statement) done first, it no longer runs under the lock, which
      // the counting statements and the commit still hold (docs/benchmarks.md, "Where the time goes on
      // PostgreSQL"). A send its month's cap or its day's test allowance then refuses is taken out
      // again, its event with it (on delete cascade): only a batch that reaches a cap has any. Sends of
      // a period found full are counted first and stored only if accepted.
      const standing = items.flatMap((item, i) => (outcomes[i] === undefined ? [i] : []));
      const storedFirst: number[] = [];
      const countedFirst: number[] = [];
      for (const i of standing) (this.knownFull(items[i]!) ? countedFirst : storedFirst).push(i);
      await this.store(trx, items, storedFirst);
      await this.countQuota(trx, items, outcomes);
      for (const [i, item] of items.entries()) {
        const outcome = outcomes[i];
        if (outcome?.kind === 'quota_exceeded' || outcome?.kind === 'test_quota_exceeded') {
          this.markFull(item);
        }
      }
      const accepted = (i: number) => (outcomes[i] ??= { kind: 'accepted' }).kind === 'accepted';
      await this.store(trx, items, countedFirst.filter(accepted));
      const refused = storedFirst.filter((i) => !accepted(i));
      if (refused.length > 0) {
        const ids = refused.map((i) => items[i]!.message.id);
        await trx.deleteFrom('messages').where('id', 'in', ids).execute();
      }
      return outcomes as AcceptOutcome[];
    });
  }

  /** The messages of `indexes`, their bodies and their first events: one statement. */
  private async store(trx: Transaction<Database>, items: AcceptItem[], indexes: number[]): Promise<void> {
    if (indexes.length === 0) return;
    await trx
      .with('inserted', (db) => db.insertInto('messages').values(indexes.map((i) => items[i]!.message)))
      .with('bodies', (db) =>
        db.insertInto('message_bodies').values(
          indexes.map((i) => ({
            message_id: items[i]!.message.id,
            html: items[i]!.html,
            parts: items[i]!.bodyParts ?? 0,
            sealed: items[i]!.sealed ? 1 : 0,
          })),
        ),
      )
      .insertInto('events')
      .values(indexes.map((i) => items[i]!.event))
      .execute();
    // txmail's sealed mail (a few, never a customer's send): listed for the retention sweep.
    const sealed = indexes.filter((i) => items[i]!.sealed).map((i) => ({ message_id: items[i]!.message.id }));
    if (sealed.length > 0) await trx.insertInto('sealed_messages').values(sealed).execute();
  }

  private knownFull(item: AcceptItem): boolean {
    const period = fullKey(item);
    return period !== undefined && (this.full.get(period.key) ?? -1) >= period.cap;
  }

  private markFull(item: AcceptItem): void {
    const period = fullKey(item);
    if (!period) return;
    // Bounded: a month's or a day's full periods, of the accounts that reach their caps.
    if (this.full.size >= 10_000) this.full.clear();
    this.full.set(period.key, period.cap);
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
      monthOf,
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
      dayOf,
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

/** A send's period and cap: the month it counts in against the plan, or the day of a test send. */
type PeriodOf = (item: AcceptItem) => { period: string; cap: number } | undefined;
const monthOf: PeriodOf = (item) => item.quota && { period: item.quota.month, cap: item.quota.cap };
const dayOf: PeriodOf = (item) => item.testQuota && { period: item.testQuota.day, cap: item.testQuota.cap };

/** The key of the period a send counts in (month or day, with its account) and that period's cap. */
function fullKey(item: AcceptItem): { key: string; cap: number } | undefined {
  const account = item.message.account_id;
  const month = monthOf(item);
  if (month) return { key: `month\n${account}\n${month.period}`, cap: month.cap };
  const day = dayOf(item);
  return day && { key: `day\n${account}\n${day.period}`, cap: day.cap };
}

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
  capOf: PeriodOf,
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
