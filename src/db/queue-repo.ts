// The delivery queue, in the messages table: claiming due messages under a lease, and recording each
// attempt's outcome with its events in one transaction.
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
import { claimLeased } from './lease-claim.js';
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
}

export class QueueRepo {
  /**
   * Called after a commit that queued webhook pushes (the composition root wakes the dispatcher of
   * this process with it). Not called for commits that queued none: most, when no endpoint listens.
   */
  onWebhookPushesQueued: () => void = () => undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Leases up to `limit` due messages to `owner` until `leaseUntil`. A message whose lease expired (its
   * worker died) is due again. On PostgreSQL, SKIP LOCKED lets many workers claim at once without
   * waiting on each other; SQLite has one writer at a time, so the statement alone is atomic.
   */
  async claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<MessageRow[]> {
    return claimLeased<MessageRow>(
      this.db,
      this.dialect,
      { table: 'messages', due: 'next_attempt_at', owner: 'lease_owner', until: 'lease_expires_at' },
      owner,
      now,
      leaseUntil,
      limit,
    );
  }

  /**
   * Records attempts: each message's new state, its attempt row, its events and their webhook outbox
   * rows, in one transaction (group commit: see group-commit.ts). A record applies only while `owner`
   * still holds the lease; its outcome is false when the lease was lost.
   */
  async recordMany(records: AttemptRecord[]): Promise<boolean[]> {
    let pushes = 0;
    const applied = await this.db.transaction().execute(async (trx) => {
      const applied: boolean[] = [];
      for (const r of records) applied.push(await this.recordOne(trx, r));
      // The batch's events in one statement (webhook-enqueue.ts).
      pushes = await enqueueWebhookEvents(
        trx,
        records.flatMap((r, i) =>
          applied[i]
            ? r.events.map((e) => ({ id: e.id, account_id: r.accountId, type: e.type, created_at: r.now }))
            : [],
        ),
      );
      return applied;
    });
    if (pushes > 0) this.onWebhookPushesQueued();
    return applied;
  }

  private async recordOne(trx: Transaction<Database>, r: AttemptRecord): Promise<boolean> {
    {
      const updated = await trx
        .updateTable('messages')
        .set({
          status: r.status,
          next_attempt_at: r.nextAttemptAt,
          updated_at: r.now,
          lease_owner: null,
          lease_expires_at: null,
          ...(r.counted ? { attempts: sql<number>`attempts + 1` } : {}),
        })
        .where('id', '=', r.messageId)
        .where('lease_owner', '=', r.owner)
        .executeTakeFirst();
      if (updated.numUpdatedRows === 0n) return false;
      if (r.attempt) await trx.insertInto('delivery_attempts').values(r.attempt).execute();
      if (r.events.length > 0) {
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
      return true;
    }
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
