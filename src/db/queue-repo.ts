// The delivery queue, in the messages table: claiming due messages under a lease, and recording each
// attempt's outcome with its events in one transaction.
//
// The claim serves accounts in turn (fair-claim.ts, with the account as both tenant and group): the
// account holding the fewest leases first, each account's messages by due time (FIFO). One account's
// backlog, however long, delays another account's message by at most one claim round: the next claim
// of any worker takes it before the backlog's next message. There is no cap on an account's leases:
// alone, an account gets every free slot of every claim (the full throughput of the workers); with
// others waiting, the turn gives each of them a slot before the backlog gets another. Accounts are
// weighed by plan (PlanLimits.deliveryShare: an account's rank is divided by its share), so busy accounts
// share the workers in proportion to their plans; one with nothing in delivery still goes first, or
// after at most (largest share − 1) picks of a busier one in the same claim. Slow destinations
// cannot hold every worker slot either: destination-limits.ts reschedules a delivery that would wait for
// its destination instead of holding a slot (ARCHITECTURE.md, "Fair delivery claim").
//
// Within an account, mail with a deadline (its domain's expire_after: one-time codes, sign-in links)
// goes first: the fair claim decides how many messages each account gets, then each account swaps the
// ones without a deadline it got for its due mail with a deadline (laneFirst), so an account's backlog
// of mail without a deadline (a newsletter to a dead list) never holds up its own codes, and no
// account's deadlines take another account's turn. Mail past its deadline that no delivery reached is
// failed by the expiry pass (claimExpired), not when a worker reaches it (ARCHITECTURE.md, "Expiry").
//
// What a record writes, and the guard that keeps it from overwriting a status the receiver recorded, is
// queue-record.ts; the statements that differ by database are the queue seam (seams.ts QueueStore).
import { Signal } from '../wake-signals.js';
import { sql, type Kysely } from 'kysely';
import type { Database, MessageWithBody } from './schema.js';
import { PLANS } from '../accounts/plans.js';
import { bouncedDisabledBefore } from './disabled-bounces.js';
import { inTurn, UNCAPPED, type FairCaps, type FairQueue } from './fair-claim.js';
import type { AttemptRecord, RecordOutcome } from './queue-record.js';
import type { QueueStore } from './seams.js';

export type { AttemptRecord, RecordOutcome } from './queue-record.js';

/**
 * The delivery queue as a fair queue: accounts in turn, each account one group, weighed by plan
 * (PlanLimits.deliveryShare): the shares are constants of the statement, so its text never changes.
 */
export const DELIVERY_QUEUE: FairQueue = {
  table: 'messages',
  due: 'next_attempt_at',
  owner: 'lease_owner',
  until: 'lease_expires_at',
  tenant: {
    column: 'account_id',
    table: 'accounts',
    share: sql<number>`case ${sql.ref('tt.plan')} ${sql.join(
      Object.entries(PLANS).map(
        ([plan, limits]) => sql`when ${sql.lit(plan)} then ${sql.lit(limits.deliveryShare)}`,
      ),
      sql` `,
    )} else 1 end`,
  },
  group: { column: 'account_id', table: 'accounts' },
};

/** No cap: the turn alone keeps the accounts fair (see above); a lone account takes every slot. */
export const DELIVERY_CAPS: FairCaps = { perGroup: UNCAPPED, perTenant: UNCAPPED };

/**
 * The worker's reserve claim (lease-loop.ts `reserve`): one message of an account that holds no lease
 * at all, in any process. When every slot holds an attempt that could not step aside, these are the
 * accounts whose mail is not stuck behind its own.
 */
export const IDLE_ACCOUNT_CAPS: FairCaps = { perGroup: UNCAPPED, perTenant: 1 };

/** How far ahead of an account's other mail its mail with a deadline is put (inDeliveryTurn): 100 years. */
const DEADLINE_AHEAD_MS = 100 * 365 * 24 * 3600_000;

/**
 * Claimed messages in the order of their turns (fair-claim.ts), which the worker starts them in; within
 * an account, its mail with a deadline first.
 */
export function inDeliveryTurn(rows: MessageWithBody[]): MessageWithBody[] {
  return inTurn(
    rows,
    (r) => r.account_id,
    (r) => Number(r.next_attempt_at) - (r.deadline_at === null ? 0 : DEADLINE_AHEAD_MS),
  );
}

export class QueueRepo {
  /**
   * Emitted after a commit that queued webhook pushes (the dispatcher of this process listens:
   * wake-signals.ts). Not for commits that queued none: most, when no endpoint listens.
   */
  readonly webhookPushesQueued: Signal;

  constructor(
    private readonly db: Kysely<Database>,
    /** The claim and the record on this database (db/dialect.ts). */
    private readonly store: QueueStore,
    webhookPushesQueued: Signal = new Signal(),
  ) {
    this.webhookPushesQueued = webhookPushesQueued;
  }

  /**
   * Leases up to `limit` due messages to `owner` until `leaseUntil`, in turn by account (fair-claim.ts):
   * the accounts holding the fewest leases first, each account's messages by due time, then id. The
   * answer is in that order too (inDeliveryTurn). A message whose lease expired (its worker died) is
   * due again. Concurrent claims never lease a message twice (the store's claim: SKIP LOCKED on
   * PostgreSQL; SQLite has one writer at a time, so the statement alone is atomic). `caps`: the claim's
   * caps, the stores' DELIVERY_CAPS unless given (the worker's reserve gives IDLE_ACCOUNT_CAPS).
   */
  async claimDue(
    owner: string,
    now: number,
    leaseUntil: number,
    limit: number,
    caps?: FairCaps,
  ): Promise<MessageWithBody[]> {
    const claimed = await this.store.claim(owner, now, leaseUntil, limit, caps);
    return inDeliveryTurn(await this.laneFirst(owner, now, leaseUntil, claimed));
  }

  /**
   * Within each account, its due mail with a deadline in place of the mail without one the fair claim
   * gave it (see above): the account takes up to as many of the former (queue-record.ts
   * deadlineLaneStatement) and gives back as many of the latter, the latest due first. Every account
   * keeps the number of messages its turn gave it. One statement when no account has such mail due.
   */
  private async laneFirst(
    owner: string,
    now: number,
    leaseUntil: number,
    claimed: MessageWithBody[],
  ): Promise<MessageWithBody[]> {
    const without = new Map<string, MessageWithBody[]>();
    for (const m of claimed) {
      if (m.deadline_at !== null) continue;
      const some = without.get(m.account_id);
      if (some) some.push(m);
      else without.set(m.account_id, [m]);
    }
    if (without.size === 0) return claimed;
    const perAccount = new Map([...without].map(([account, some]) => [account, some.length]));
    const lane = await this.store.claimDeadlineLane(owner, now, leaseUntil, perAccount);
    if (lane.length === 0) return claimed;
    const taken = new Map<string, number>();
    for (const m of lane) taken.set(m.account_id, (taken.get(m.account_id) ?? 0) + 1);
    const back = new Set<string>();
    for (const [account, n] of taken) {
      const latestFirst = without
        .get(account)!
        .sort((x, y) => Number(y.next_attempt_at) - Number(x.next_attempt_at) || (y.id < x.id ? -1 : 1));
      for (const m of latestFirst.slice(0, n)) back.add(m.id);
    }
    await this.store.release(owner, [...back]);
    return [...claimed.filter((m) => !back.has(m.id)), ...lane];
  }

  /**
   * The worker's lane for mail with a deadline (delivery/worker.ts claim): up to `limit` due messages
   * still before their deadline, one per account (its nearest deadline), none of `exceptAccounts` (those
   * with one on the lane already). When every slot holds an attempt that cannot step aside (to servers
   * that never answer, often the account's own backlog), an account's one-time code still gets a place.
   */
  async claimLane(
    owner: string,
    now: number,
    leaseUntil: number,
    limit: number,
    exceptAccounts: readonly string[] = [],
  ): Promise<MessageWithBody[]> {
    return inDeliveryTurn(
      await this.store.claimDeadlineLane(owner, now, leaseUntil, { limit, except: exceptAccounts }),
    );
  }

  /**
   * The expiry pass's claim: up to `limit` waiting messages past their deadline that no live lease
   * holds, earliest deadline first, with no turn and no caps (the worker fails them without an attempt,
   * taking no delivery slot: ARCHITECTURE.md, "Expiry"). Their HTML is not read ('').
   */
  claimExpired(owner: string, now: number, leaseUntil: number, limit: number): Promise<MessageWithBody[]> {
    return this.store.claimExpired(owner, now, leaseUntil, limit);
  }

  /**
   * The message's stored deadline now (messages.deadline_at; undefined: no such message): a PATCH of its
   * domain's expire_after may have moved it since the claim read it.
   */
  async deadlineAt(messageId: string): Promise<number | null | undefined> {
    const row = await this.db
      .selectFrom('messages')
      .select('deadline_at')
      .where('id', '=', messageId)
      .executeTakeFirst();
    return row && (row.deadline_at === null ? null : Number(row.deadline_at));
  }

  /** Whether a disabled-mailbox bounce to `toEmail` is repeated (disabled-bounces.ts). */
  bouncedDisabledBefore(
    accountId: string,
    toEmail: string,
    exceptMessageId: string,
    since: number,
  ): Promise<boolean> {
    return bouncedDisabledBefore(this.db, accountId, toEmail, exceptMessageId, since);
  }

  /**
   * Records attempts: each message's new state, its attempt row, its events and their webhook outbox
   * rows, in one transaction (group commit: see group-commit.ts), with the batch's reputation counts
   * (one upsert per account, day and domain, last, so a busy account's row is locked only until the
   * commit). A record applies only while `owner` still holds the lease, and changes the status only of
   * a message still queued (see RecordOutcome, queue-record.ts).
   */
  async recordMany(records: AttemptRecord[]): Promise<RecordOutcome[]> {
    const { outcomes, pushes } = await this.store.record(records);
    if (pushes > 0) this.webhookPushesQueued.emit();
    return outcomes;
  }

  /**
   * Gives back every lease `owner` holds but those of `except` (graceful shutdown; or after a claim
   * whose answer was lost, which leaves leases the worker does not know it holds): the messages are
   * due again at once.
   */
  async releaseAll(owner: string, except: string[] = []): Promise<number> {
    let q = this.db
      .updateTable('messages')
      .set({ lease_owner: null, lease_expires_at: null })
      .where('lease_owner', '=', owner);
    if (except.length > 0) q = q.where('id', 'not in', except);
    const r = await q.executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /**
   * Extends `owner`'s leases on `ids` to `until`: messages the worker still has in hand near the end of
   * their lease (a slow server's reply to the final ".": worker.ts renewLeases). A lease that is no
   * longer `owner`'s (released, or taken over) stays as it is. Says how many were extended.
   */
  async renewLeases(owner: string, ids: string[], until: number): Promise<number> {
    if (ids.length === 0) return 0;
    const r = await this.db
      .updateTable('messages')
      .set({ lease_expires_at: until })
      .where('lease_owner', '=', owner)
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /**
   * Makes parked messages due now (their destination has room again: destination-limits.ts, recall):
   * each only while it is still queued or deferred, leased to nobody, and due at the time it was
   * parked for (a message the worker has since rescheduled for another reason, or a paused account
   * holds, keeps its time). Says how many.
   */
  async recall(parked: { id: string; at: number }[], now: number): Promise<number> {
    if (parked.length === 0) return 0;
    const r = await this.db
      .updateTable('messages')
      .set({ next_attempt_at: now })
      .where((eb) =>
        eb.or(parked.map((p) => eb.and([eb('id', '=', p.id), eb('next_attempt_at', '=', p.at)]))),
      )
      .where('status', 'in', ['queued', 'deferred'])
      .where('lease_owner', 'is', null)
      .where('next_attempt_at', '>', now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows);
  }

  /**
   * The earliest next_attempt_at of a message no live lease holds at `now` (to sleep exactly until
   * then), or undefined (queue-record.ts nextDueStatement).
   */
  nextDue(now: number): Promise<number | undefined> {
    return this.store.nextDue(now);
  }

  /** Messages waiting for delivery (queued or deferred) and when the oldest of them was accepted. */
  async depth(): Promise<{ waiting: number; oldestCreatedAt: number | undefined }> {
    const row = await this.db
      .selectFrom('messages')
      .select((eb) => [eb.fn.countAll<number>().as('waiting'), eb.fn.min('created_at').as('oldest')])
      .where('next_attempt_at', 'is not', null)
      .executeTakeFirst();
    return {
      waiting: Number(row?.waiting ?? 0),
      oldestCreatedAt: row?.oldest === null || row?.oldest === undefined ? undefined : Number(row.oldest),
    };
  }
}
