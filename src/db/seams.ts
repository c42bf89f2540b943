// The database seams: the few things SQLite and PostgreSQL do differently, one interface each. Every
// seam has one implementation per database, under the same file name in db/sqlite/ and db/postgres/
// (accept.ts, queue.ts, webhook-enqueue.ts, rate-limit-store.ts, queue-signal.ts); db/dialect.ts picks
// a connection's set. What differs only in a clause (a row lock, an isolation level) is not a seam: the
// repository checks `db.dialect` there (dialect.ts lists them). test/contract/ holds one contract per
// seam, run on both databases (ARCHITECTURE.md, "db/: the seams").
import type { FairCaps } from './fair-claim.js';
import type { Bucket, BucketState } from '../rate-limit-gcra.js';
import type { AcceptItem, AcceptOutcome } from './accept-item.js';
import type { AttemptRecord, LanePick, RecordOutcome } from './queue-record.js';
import type { MessageWithBody } from './schema.js';
import type { Statement } from './statement.js';
import type { RecordedEvent } from './webhook-enqueue.js';

/**
 * Accept: commits a batch of accepted mail in one transaction (accept-item.ts): per item, in order,
 * what became of it. Durable when the promise resolves.
 */
export type AcceptTransaction = (items: AcceptItem[]) => Promise<AcceptOutcome[]>;

/** What a record of attempts did: each record's outcome, and how many webhook pushes it queued. */
export interface RecordedAttempts {
  outcomes: RecordOutcome[];
  pushes: number;
}

/**
 * Queue: the delivery queue's claim and record, the statements that run for every message
 * (queue-repo.ts holds the rest, which needs no dialect). What a record writes is queue-record.ts's,
 * the same steps on both databases; a store only runs them.
 */
export interface QueueStore {
  /**
   * Leases up to `limit` due messages to `owner` until `leaseUntil` (fair-claim.ts), none twice however
   * many claims run at once; in no particular order (queue-repo.ts puts them in turn).
   */
  claim(
    owner: string,
    now: number,
    leaseUntil: number,
    limit: number,
    caps?: FairCaps,
  ): Promise<MessageWithBody[]>;
  /**
   * Leases due messages with a deadline (messages.deadline_at) that no live lease holds, each account's
   * nearest deadline first (queue-record.ts deadlineLaneStatement): for each account of a map, up to its number (the
   * claim's swap, QueueRepo.claimDue); or one per account not in `except`, before its deadline, `limit`
   * in all (the worker's lane). In no particular order.
   */
  claimDeadlineLane(
    owner: string,
    now: number,
    leaseUntil: number,
    pick: LanePick,
  ): Promise<MessageWithBody[]>;
  /** Gives back `owner`'s leases on `ids`. */
  release(owner: string, ids: readonly string[]): Promise<void>;
  /**
   * Leases up to `limit` messages past their deadline (messages.deadline_at at or before `now`) that no
   * live lease holds, earliest deadline first, to `owner` until `leaseUntil`, with no turn and no caps:
   * the worker fails them without an attempt (QueueRepo.claimExpired). Their HTML is not read (''). In no
   * particular order.
   */
  claimExpired(owner: string, now: number, leaseUntil: number, limit: number): Promise<MessageWithBody[]>;
  /** Applies the records in one transaction (queue-record.ts recordSteps), with their pushes and counts. */
  record(records: AttemptRecord[]): Promise<RecordedAttempts>;
  /** The earliest next_attempt_at of a message no live lease holds at `now`, or undefined. */
  nextDue(now: number): Promise<number | undefined>;
}

/**
 * Webhook enqueue: the statements that fan recorded events out to the outbox, one row per enabled
 * endpoint of the event's account subscribed to its type, to run inside the transaction that stores the
 * events (so both commit or neither). Each statement's affected rows are the pushes it queued.
 */
export interface WebhookEnqueue {
  statements(events: RecordedEvent[]): Statement[];
}

/**
 * Rate-limit store: where the request rate limits' buckets live (rate-limit-gcra.ts). `take` applies one
 * GCRA step to every bucket at the time `now` and gives their states back in order.
 */
export interface RateLimitStore {
  take(buckets: Bucket[], now: number): Promise<BucketState[]>;
}

/** Queue signal: tells delivery workers in other processes that mail was queued. Only a hint. */
export interface QueueSignal {
  /** Tells every listening process that mail was queued. Never throws. */
  queued(): void;
  /** Calls onQueued whenever any process queued mail, until the returned stop function is called. */
  listen(onQueued: () => void, onError: (err: Error) => void): Promise<() => Promise<void>>;
  /** The server process id of the listening connection, when there is one (operations, tests). */
  listenerPid(): number | undefined;
}
