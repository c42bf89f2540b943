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
// A record moves the message only out of a queued status (QUEUED_MESSAGE_STATUSES), checked in the
// UPDATE itself so it holds across processes: the receiver may record a bounce or a complaint while a
// worker still holds the lease (a relay that accepted the message and bounced it before the worker's
// record committed), and a "delivered" or "deferred" written after it would lose it.
import { Signal } from '../wake-signals.js';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Dialect } from './database.js';
import type {
  Database,
  DeliveryAttemptRow,
  EventType,
  MessageRow,
  MessageStatus,
  SuppressionRow,
} from './schema.js';
import { QUEUED_MESSAGE_STATUSES } from './schema.js';
import type { ReputationDelta } from '../reputation/counts.js';
import { addReputationCounts } from './reputation-repo.js';
import { PLANS } from '../accounts/plans.js';
import { bouncedDisabledBefore } from './disabled-bounces.js';
import { eventCategory } from './event-category.js';
import { claimFair, inTurn, UNCAPPED, type FairCaps, type FairQueue } from './fair-claim.js';
import { enqueueWebhookEvents } from './webhook-enqueue.js';

export interface AttemptRecord {
  messageId: string;
  accountId: string;
  owner: string;
  status: MessageStatus;
  nextAttemptAt: number | null;
  /** false: the attempt did not count (e.g. destination paused), only the schedule moves. */
  counted: boolean;
  attempt: DeliveryAttemptRow | undefined;
  events: { id: string; type: EventType; data: Record<string, unknown> }[];
  /** The recipient to put on the account's suppression list (kept if already there). */
  suppression?: Omit<SuppressionRow, 'account_id' | 'source_message_id' | 'created_at'>;
  now: number;
  /**
   * What the record adds to the account's reputation counts if it is applied (reputation/counts.ts
   * deliveryDelta); a superseded record adds nothing (the receiver counted the change it made).
   */
  reputation?: ReputationDelta;
}

/** The reputation deltas of the records that were applied. */
export function appliedDeltas(
  records: readonly AttemptRecord[],
  outcomes: readonly RecordOutcome[],
): ReputationDelta[] {
  const deltas: ReputationDelta[] = [];
  records.forEach((r, i) => {
    if (outcomes[i] === 'applied' && r.reputation) deltas.push(r.reputation);
  });
  return deltas;
}

/**
 * What became of a record. `applied`: the message's new state, the attempt and the events are stored.
 * `superseded`: the message had reached a final status meanwhile (a bounce or complaint recorded by the
 * receiver); it keeps that status and leaves the queue, the attempt row (and a suppression it found) is
 * stored, its events are not (an event is a status change, and this one did not happen). `lease_lost`:
 * nothing is stored.
 */
export type RecordOutcome = 'applied' | 'superseded' | 'lease_lost';

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

/** Claimed messages in the order of their turns (fair-claim.ts), which the worker starts them in. */
export function inDeliveryTurn(rows: MessageRow[]): MessageRow[] {
  return inTurn(
    rows,
    (r) => r.account_id,
    (r) => Number(r.next_attempt_at),
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
    private readonly dialect: Dialect,
    webhookPushesQueued: Signal = new Signal(),
  ) {
    this.webhookPushesQueued = webhookPushesQueued;
  }

  /**
   * Leases up to `limit` due messages to `owner` until `leaseUntil`, in turn by account (fair-claim.ts):
   * the accounts holding the fewest leases first, each account's messages by due time, then id. The
   * answer is in that order too (inDeliveryTurn). A
   * message whose lease expired (its worker died) is due again. On PostgreSQL, SKIP LOCKED lets many
   * workers claim at once without waiting on each other (a claim skips the accounts another claim is
   * taking from, and never leases a row twice); SQLite has one writer at a time, so the statement alone
   * is atomic.
   */
  async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<MessageRow[]> {
    return inDeliveryTurn(
      await claimFair<MessageRow>(
        this.db,
        this.dialect,
        DELIVERY_QUEUE,
        owner,
        now,
        leaseUntil,
        limit,
        DELIVERY_CAPS,
      ),
    );
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
   * a message still queued (see RecordOutcome).
   */
  async recordMany(records: AttemptRecord[]): Promise<RecordOutcome[]> {
    let pushes = 0;
    const outcomes = await this.db.transaction().execute(async (trx) => {
      const outcomes: RecordOutcome[] = [];
      for (const r of records) outcomes.push(await this.recordOne(trx, r));
      // The batch's events in one statement (webhook-enqueue.ts).
      pushes = await enqueueWebhookEvents(
        trx,
        records.flatMap((r, i) =>
          outcomes[i] === 'applied'
            ? r.events.map((e) => ({ id: e.id, account_id: r.accountId, type: e.type, created_at: r.now }))
            : [],
        ),
      );
      await addReputationCounts(trx, appliedDeltas(records, outcomes));
      return outcomes;
    });
    if (pushes > 0) this.webhookPushesQueued.emit();
    return outcomes;
  }

  private async recordOne(trx: Transaction<Database>, r: AttemptRecord): Promise<RecordOutcome> {
    const attempts = r.counted ? { attempts: sql<number>`attempts + 1` } : {};
    // The category of the failure these events record, if any (event-category.ts); kept otherwise.
    const category = eventCategory(r.events);
    const updated = await trx
      .updateTable('messages')
      .set({
        status: r.status,
        next_attempt_at: r.nextAttemptAt,
        updated_at: r.now,
        lease_owner: null,
        lease_expires_at: null,
        ...attempts,
        ...(category === null ? {} : { category }),
      })
      .where('id', '=', r.messageId)
      .where('lease_owner', '=', r.owner)
      .where('status', 'in', QUEUED_MESSAGE_STATUSES)
      .executeTakeFirst();
    let outcome: RecordOutcome = 'applied';
    if (updated.numUpdatedRows === 0n) {
      // Not queued any more (or not ours): if the lease is still ours, give it back and take the
      // message out of the queue, keeping the status the receiver recorded.
      const released = await trx
        .updateTable('messages')
        .set({
          next_attempt_at: null,
          updated_at: r.now,
          lease_owner: null,
          lease_expires_at: null,
          ...attempts,
        })
        .where('id', '=', r.messageId)
        .where('lease_owner', '=', r.owner)
        .executeTakeFirst();
      if (released.numUpdatedRows === 0n) return 'lease_lost';
      outcome = 'superseded';
    }
    if (r.attempt) await trx.insertInto('delivery_attempts').values(r.attempt).execute();
    if (outcome === 'applied' && r.events.length > 0) {
      await trx
        .insertInto('events')
        .values(
          r.events.map((e) => ({
            id: e.id,
            message_id: r.messageId,
            account_id: r.accountId,
            type: e.type,
            created_at: r.now,
            data: JSON.stringify(e.data),
          })),
        )
        .execute();
    }
    if (r.suppression) {
      await trx
        .insertInto('suppressions')
        .values({
          ...r.suppression,
          account_id: r.accountId,
          source_message_id: r.messageId,
          created_at: r.now,
        })
        .onConflict((oc) => oc.columns(['account_id', 'address']).doNothing())
        .execute();
    }
    return outcome;
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

  /** The earliest next_attempt_at in the queue (to sleep exactly until then), or undefined. */
  async nextDue(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.min('next_attempt_at').as('next'))
      .where('next_attempt_at', 'is not', null)
      .executeTakeFirst();
    return row?.next === null || row?.next === undefined ? undefined : Number(row.next);
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
