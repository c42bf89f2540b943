// The inbound side's storage: messages the receiver answered 250 to (stored before that answer, kept
// under a lease while processed), the look-ups that match them to sent mail, and the one transaction
// that records what a bounce or complaint means.
import { Signal } from '../wake-signals.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Insertable, Kysely } from 'kysely';
import { AttemptCountsRepo, type CountCharge } from './attempt-counts-repo.js';
import type { Dialect } from './database.js';
import { bouncedDisabledBefore } from './disabled-bounces.js';
import { eventCategory, FINAL_FAILURE_STATUSES } from './event-category.js';
import { enqueueWebhookEvents } from './webhook-enqueue.js';
import {
  delta,
  inboundCounts,
  SPAM_COMPLAINT,
  type InboundCount,
  type ReputationDelta,
} from '../reputation/counts.js';
import { RAW_PART_BYTES, storedInParts } from '../inbound/message-memory.js';
import { addReputationCounts } from './reputation-repo.js';
import { CONTENT_BYTES_PER_BATCH, prefixWithin } from './retention-repo.js';
import type { SqlitePartsStore } from './sqlite/parts-store.js';
import type {
  Database,
  EventType,
  InboundMessageRow,
  InboundMessagesTable,
  InboundRaw,
  MessageRow,
  MessageStatus,
  ReceivedMessage,
  SuppressionOrigin,
} from './schema.js';

export type InboundTarget = Pick<
  MessageRow,
  'id' | 'account_id' | 'status' | 'to_email' | 'to_domain' | 'category'
>;

/** One change to a sent message that a bounce or complaint causes. */
export interface InboundEffect {
  messageId: string;
  accountId: string;
  event: { id: string; type: EventType; data: Record<string, unknown> };
  /** The message's new status; undefined leaves it as it is (a delay warning). */
  status: MessageStatus | undefined;
  suppression:
    | { id: string; address: string; origin: SuppressionOrigin; reason: string; enhancedCode: string | null }
    | undefined;
  /**
   * What the status change counts as in the account's reputation counts (reputation/counts.ts); the
   * counts themselves depend on the message's state when the change is stored, read in its transaction.
   */
  reputation?: InboundCount;
}

/**
 * A raw text stored whole (base64) or, with `parts` > 0, in inbound_raw_parts (migration 038): written
 * before the transaction (`written`, SQLite's parts store) or in it, a statement a part (`toInsert`).
 */
type StoredRaw =
  | { raw: string; parts: 0 }
  | { parts: number; written: true }
  | { parts: number; toInsert: Iterable<string> };

/** The message's row and, apart from it, its raw text (migration 034), with or adopting its parts. */
async function insertReceived(
  trx: Kysely<Database>,
  row: Insertable<InboundMessagesTable>,
  stored: StoredRaw,
): Promise<void> {
  await trx.insertInto('inbound_messages').values(row).execute();
  const raw = 'raw' in stored ? stored.raw : '';
  await trx.insertInto('inbound_raw').values({ inbound_id: row.id, raw, parts: stored.parts }).execute();
  if ('written' in stored)
    await trx.deleteFrom('inbound_raw_parts_pending').where('inbound_id', '=', row.id).execute();
  if ('toInsert' in stored) {
    // One statement a part: the event loop turns between them while the database answers.
    let seq = 0;
    for (const part of stored.toInsert)
      await trx.insertInto('inbound_raw_parts').values({ inbound_id: row.id, seq: seq++, part }).execute();
  }
}

/** Messages the prune deletes in one transaction at most. */
const PRUNE_BATCH = 200;

/** Parts read back in one statement where there is no parts store (PostgreSQL): 4 MiB of base64. */
const PARTS_PER_READ = 8;

/** The base64 text of `pieces`, a part of RAW_PART_BYTES bytes at a time, each made when asked for. */
export function* base64Parts(pieces: readonly Uint8Array[], partBytes = RAW_PART_BYTES): Generator<string> {
  // One buffer for every part: its base64 text is a copy.
  const part = Buffer.allocUnsafe(partBytes);
  let filled = 0;
  for (const piece of pieces) {
    for (let at = 0; at < piece.length;) {
      const n = Math.min(partBytes - filled, piece.length - at);
      part.set(piece.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === partBytes) {
        yield part.toString('base64');
        filled = 0;
      }
    }
  }
  if (filled > 0) yield part.subarray(0, filled).toString('base64');
}

/** A received message's row, and its raw text apart. */
function apart(message: ReceivedMessage): { row: Insertable<InboundMessagesTable>; raw: InboundRaw } {
  if ('pieces' in message) {
    const { pieces, ...row } = message;
    return { row, raw: { pieces } };
  }
  const { raw, ...row } = message;
  return { row, raw: { raw } };
}

const byteLength = (pieces: readonly Uint8Array[]) => pieces.reduce((n, p) => n + p.length, 0);

/** Thrown inside storeCharged's transaction to roll back what was counted before. */
class NoRoom extends Error {}

export class InboundRepo {
  /** Emitted after a commit that queued webhook pushes (the dispatcher listens: wake-signals.ts). */
  readonly webhookPushesQueued: Signal;

  /**
   * `rawParts`: where large raw texts are written in parts before the transaction that stores their
   * message (SQLite's event-loop connection, whose statements hold the loop); without it (PostgreSQL)
   * they are inserted in that transaction, a statement a part.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    webhookPushesQueued: Signal = new Signal(),
    private readonly rawParts?: SqlitePartsStore,
  ) {
    this.webhookPushesQueued = webhookPushesQueued;
  }

  /** Stores a received message, leased to its receiver until `leaseUntil`. Durable on return. */
  async store(message: ReceivedMessage): Promise<void> {
    await this.withRaw(message, (row, raw) =>
      this.db.transaction().execute(async (trx) => {
        await insertReceived(trx, row, raw);
        return true;
      }),
    );
  }

  /**
   * Stores a received message and counts it against its sender's budget in one transaction: every
   * charge is added (AttemptCountsRepo.add) and the message stored, or nothing is written. Returns the
   * first charge that had no room, or undefined once stored. Durable on return. One commit, so the
   * budget costs no fsync of its own.
   */
  async storeCharged<C extends CountCharge>(
    message: ReceivedMessage,
    charges: C[],
    now: number,
  ): Promise<C | undefined> {
    let refused: C | undefined;
    // A message going in parts is written before the transaction that counts it: one without room is
    // refused on a read first, so a client past its budget cannot have 10 MB written and deleted again
    // and again. (Reaching it between the read and the count, it is refused there and its parts go.)
    if (this.storesInParts(message)) {
      refused = await new AttemptCountsRepo(this.db).firstWithoutRoom(charges, now);
      if (refused) return refused;
    }
    await this.withRaw(message, (row, raw) =>
      this.db
        .transaction()
        .execute(async (trx) => {
          const counts = new AttemptCountsRepo(trx);
          for (const c of charges) {
            if (!(await counts.add(c.key, c.amount, c.max, c.windowMs, now))) {
              refused = c;
              throw new NoRoom();
            }
          }
          await insertReceived(trx, row, raw);
          return true;
        })
        .catch((err: unknown) => {
          // Thrown to roll back what was counted before the charge without room.
          if (!(err instanceof NoRoom)) throw err;
          return false;
        }),
    );
    return refused;
  }

  /** Whether its parts are written before the transaction that stores it (SQLite's parts store). */
  private storesInParts(message: ReceivedMessage): boolean {
    return this.rawParts !== undefined && 'pieces' in message && storedInParts(byteLength(message.pieces));
  }

  /**
   * Runs `store` (true once the message is stored) with the message's raw text: a large one given in
   * pieces goes in parts (migration 038), written first where there is a parts store (SQLite), and
   * gone again if the message is not stored, else in the transaction itself. Anything else is stored
   * whole, as base64.
   */
  private async withRaw(
    message: ReceivedMessage,
    store: (row: Insertable<InboundMessagesTable>, raw: StoredRaw) => Promise<boolean>,
  ): Promise<void> {
    const { row, raw } = apart(message);
    if ('raw' in raw || !storedInParts(byteLength(raw.pieces))) {
      const text = 'raw' in raw ? raw.raw : Buffer.concat(raw.pieces).toString('base64');
      await store(row, { raw: text, parts: 0 });
      return;
    }
    const parts = this.rawParts;
    if (parts === undefined) {
      // No parts store (PostgreSQL): in the transaction that stores the message, a statement a part.
      const count = Math.ceil(byteLength(raw.pieces) / RAW_PART_BYTES);
      await store(row, { parts: count, toInsert: base64Parts(raw.pieces) });
      return;
    }
    let stored = false;
    try {
      const count = await parts.write(row.id, base64Parts(raw.pieces));
      stored = await store(row, { parts: count, written: true });
    } finally {
      // Whatever of them was written; if this fails too, the retention sweep takes them.
      if (!stored) await parts.discard(row.id).catch(() => undefined);
    }
  }

  /**
   * A stored message's raw text, read once to parse it: whole (base64, decoded on the parsing thread),
   * or its parts decoded a few a turn; undefined once it is pruned, or a part is missing.
   */
  async raw(id: string): Promise<InboundRaw | undefined> {
    const row = await this.db
      .selectFrom('inbound_raw')
      .select(['raw', 'parts'])
      .where('inbound_id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const count = Number(row.parts);
    if (count === 0) return { raw: row.raw };
    const decode = (part: string) => Buffer.from(part, 'base64');
    if (this.rawParts !== undefined) {
      const pieces = await this.rawParts.read(id, count, decode);
      return pieces && { pieces };
    }
    // A few parts a statement: a result is parsed whole in one turn of the loop.
    const pieces: Buffer[] = [];
    for (let from = 0; from < count; from += PARTS_PER_READ) {
      const rows = await this.db
        .selectFrom('inbound_raw_parts')
        .select('part')
        .where('inbound_id', '=', id)
        .where('seq', '>=', from)
        .where('seq', '<', from + PARTS_PER_READ)
        .orderBy('seq')
        .execute();
      pieces.push(...rows.map((p) => decode(p.part)));
    }
    return pieces.length === count ? { pieces } : undefined;
  }

  /**
   * Another message with the same fingerprint (migration 035) already processed: the id of the first,
   * or undefined. Only processed ones: a copy still pending or failed is not an answer yet.
   */
  async processedCopyOf(id: string, digest: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('inbound_messages')
      .select('id')
      .where('digest', '=', digest)
      .where('status', '=', 'processed')
      .where('id', '!=', id)
      .orderBy('received_at')
      .limit(1)
      .executeTakeFirst();
    return row?.id;
  }

  /** Whether `name` is a customer's sending domain (any account, any status). */
  async isCustomerDomain(name: string): Promise<boolean> {
    const row = await this.db.selectFrom('domains').select('id').where('name', '=', name).executeTakeFirst();
    return row !== undefined;
  }

  async findTarget(messageId: string): Promise<InboundTarget | undefined> {
    return this.db
      .selectFrom('messages')
      .select(['id', 'account_id', 'status', 'to_email', 'to_domain', 'category'])
      .where('id', '=', messageId)
      .executeTakeFirst();
  }

  /** Whether a disabled-mailbox bounce to `toEmail` is repeated (disabled-bounces.ts). */
  disabledBefore(
    accountId: string,
    toEmail: string,
    exceptMessageId: string,
    since: number,
  ): Promise<boolean> {
    return bouncedDisabledBefore(this.db, accountId, toEmail, exceptMessageId, since);
  }

  /**
   * Leases up to `limit` stored messages nobody is processing (never processed, or their processor
   * died) until `leaseUntil`, counting the attempt that begins (`attempts` of the rows returned
   * includes it): a message whose processing stops the process each time still runs out of attempts.
   * On PostgreSQL, SKIP LOCKED lets several inbound processes share the work.
   */
  async claimPending(
    owner: string,
    now: number,
    leaseUntil: number,
    limit: number,
  ): Promise<InboundMessageRow[]> {
    let due = this.db
      .selectFrom('inbound_messages')
      .select('id')
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]))
      .orderBy('received_at')
      .limit(limit);
    if (this.dialect === 'postgres') due = due.forUpdate().skipLocked();
    return this.db
      .updateTable('inbound_messages')
      .set((eb) => ({ lease_owner: owner, lease_expires_at: leaseUntil, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', due)
      .returningAll()
      .execute();
  }

  /**
   * Marks the message processed and applies its effects, in one transaction: a crash before the commit
   * leaves it pending (processed again), a crash after leaves nothing to redo. Returns false (and
   * applies nothing) when another process already finished it.
   */
  async complete(
    id: string,
    outcome: Record<string, unknown>,
    effects: InboundEffect[],
    now: number,
  ): Promise<boolean> {
    let pushes = 0;
    const completed = await this.db.transaction().execute(async (trx) => {
      const done = await trx
        .updateTable('inbound_messages')
        .set({
          status: 'processed',
          processed_at: now,
          lease_expires_at: null,
          lease_owner: null,
          outcome: JSON.stringify(outcome),
        })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      if (done.numUpdatedRows === 0n) return false;
      const recorded: InboundEffect[] = [];
      const counted: ReputationDelta[] = [];
      for (const e of effects) {
        // The category of what the event records (event-category.ts); the message keeps its own without.
        const category = eventCategory([e.event]);
        if (e.status !== undefined) {
          // The message as it is now, locked until the commit: what the change counts depends on it
          // (still queued: it reaches a final state; delivered: it was counted then), and a worker's
          // record committed since decide-effects.ts read it must not be counted twice.
          const before = e.reputation ? await this.lockedState(trx, e) : undefined;
          // A bounced or complained message is never sent again: out of the queue, even while a worker
          // holds it (its record then keeps this status: queue-repo.ts). The condition settles a race
          // that decide-effects.ts, reading first, cannot: two copies of one report processed at once
          // by two processes. The first records it; the second records nothing. A spam complaint
          // about a message an unsubscribe already ended (status complained, category unsubscribe) is
          // recorded too: it is the first complaint counted against the sender.
          const spam = e.reputation?.kind === 'complaint' && e.reputation.spam;
          const moved = await trx
            .updateTable('messages')
            .set({
              status: e.status,
              updated_at: now,
              next_attempt_at: null,
              ...(category === null ? {} : { category }),
            })
            .where('id', '=', e.messageId)
            .where('account_id', '=', e.accountId)
            .where('status', '!=', 'test')
            .where((eb) =>
              spam
                ? eb.or([
                    eb('status', '!=', e.status!),
                    eb('category', 'is', null),
                    eb('category', '!=', SPAM_COMPLAINT),
                  ])
                : eb('status', '!=', e.status!),
            )
            .executeTakeFirst();
          if (moved.numUpdatedRows === 0n) continue;
          const counts = before && e.reputation && inboundCounts(e.reputation, before);
          if (before && counts) counted.push(delta(e.accountId, before.from_domain, now, counts));
        } else if (category !== null) {
          // A delay warning keeps the status; its category replaces that of an earlier delay, never
          // the one a bounce, failure or complaint gave (that says why the message ended).
          await trx
            .updateTable('messages')
            .set({ category })
            .where('id', '=', e.messageId)
            .where('account_id', '=', e.accountId)
            .where('status', 'not in', ['test', ...FINAL_FAILURE_STATUSES])
            .execute();
        }
        recorded.push(e);
        await trx
          .insertInto('events')
          .values({
            id: e.event.id,
            message_id: e.messageId,
            account_id: e.accountId,
            type: e.event.type,
            created_at: now,
            data: JSON.stringify(e.event.data),
          })
          .execute();
        if (e.suppression) {
          await trx
            .insertInto('suppressions')
            .values({
              id: e.suppression.id,
              account_id: e.accountId,
              address: e.suppression.address,
              origin: e.suppression.origin,
              reason: e.suppression.reason,
              enhanced_code: e.suppression.enhancedCode,
              source_message_id: e.messageId,
              created_at: now,
            })
            .onConflict((oc) => oc.columns(['account_id', 'address']).doNothing())
            .execute();
        }
      }
      // Webhook pushes for the new events, in the same transaction (db/webhook-enqueue.ts).
      pushes = await enqueueWebhookEvents(
        trx,
        recorded.map((e) => ({
          id: e.event.id,
          account_id: e.accountId,
          type: e.event.type,
          created_at: now,
        })),
      );
      // Last: a busy account's counts row stays locked only until the commit (reputation-repo.ts).
      await addReputationCounts(trx, counted);
      return true;
    });
    if (pushes > 0) this.webhookPushesQueued.emit();
    return completed;
  }

  /**
   * The state a status change is counted from, in the change's transaction. PostgreSQL: locked, so no
   * worker's record moves it before this transaction's update. SQLite: this transaction already holds
   * the write lock (its first statement wrote), so nothing else can.
   */
  private async lockedState(
    trx: Kysely<Database>,
    e: InboundEffect,
  ): Promise<Pick<MessageRow, 'status' | 'attempts' | 'from_domain' | 'category'> | undefined> {
    let q = trx
      .selectFrom('messages')
      .select(['status', 'attempts', 'from_domain', 'category'])
      .where('id', '=', e.messageId)
      .where('account_id', '=', e.accountId);
    if (this.dialect === 'postgres') q = q.forUpdate();
    return q.executeTakeFirst();
  }

  /**
   * Processing failed (a bug, the database, a parse over its budget) after `attempts` attempts: try
   * again after `retryAt`. `outcome`: what the next attempt should know (kept while pending).
   */
  async postpone(
    id: string,
    attempts: number,
    retryAt: number,
    outcome?: Record<string, unknown>,
  ): Promise<void> {
    await this.db
      .updateTable('inbound_messages')
      // The wait for the retry is no one's lease: a sweep of this process must not cut it short.
      .set({
        attempts,
        lease_expires_at: retryAt,
        lease_owner: null,
        ...(outcome ? { outcome: JSON.stringify(outcome) } : {}),
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  /**
   * Gives a message up after `attempts` attempts: status `failed`, outcome `{"kind": "failed",
   * "reason": …}`, out of the recovery pass for good.
   */
  async fail(id: string, attempts: number, reason: string, now: number): Promise<void> {
    await this.db
      .updateTable('inbound_messages')
      .set({
        status: 'failed',
        attempts,
        lease_expires_at: null,
        lease_owner: null,
        processed_at: now,
        outcome: JSON.stringify({ kind: 'failed', reason }),
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  /**
   * Deletes processed (and given-up) messages received before `before`, with their raw texts; returns
   * how many. A batch at a time, each at most PRUNE_BATCH messages and CONTENT_BYTES_PER_BATCH of raw
   * text past its first, with a turn of the loop between: 30 reports of 10 MB deleted in one go held
   * the event loop 250 ms.
   */
  async prune(before: number): Promise<number> {
    let total = 0;
    for (;;) {
      const rows = await this.db
        .selectFrom('inbound_messages')
        .select(['id', 'size as bytes'])
        .where('received_at', '<', before)
        .where('status', '!=', 'pending')
        .orderBy('received_at')
        .limit(PRUNE_BATCH)
        .execute();
      const ids = prefixWithin(rows, CONTENT_BYTES_PER_BATCH).map((r) => r.id);
      if (ids.length === 0) return total;
      await this.db.transaction().execute(async (trx) => {
        // Parts have no foreign key (migration 038): they go by their message's id.
        await trx.deleteFrom('inbound_raw_parts').where('inbound_id', 'in', ids).execute();
        await trx.deleteFrom('inbound_messages').where('id', 'in', ids).execute();
      });
      total += ids.length;
      if (ids.length === rows.length && rows.length < PRUNE_BATCH) return total;
      await nextTurn();
    }
  }

  async get(id: string): Promise<InboundMessageRow | undefined> {
    return this.db.selectFrom('inbound_messages').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
