// The delivery queue's record step, written once for both databases: the statements that store one
// attempt's outcome, in order, each chosen by what the ones before it changed. The queue stores
// (db/sqlite/queue.ts, db/postgres/queue.ts) only run them, so the guard below cannot drift between
// the two.
//
// A record moves the message only out of a queued status (QUEUED_MESSAGE_STATUSES), checked in the
// UPDATE itself so it holds across processes: the receiver may record a bounce or a complaint while a
// worker still holds the lease (a relay that accepted the message and bounced it before the worker's
// record committed), and a "delivered" or "deferred" written after it would lose it.
import type { ReputationDelta } from '../reputation/counts.js';
import { eventCategory } from './event-category.js';
import {
  QUEUED_MESSAGE_STATUSES,
  type DeliveryAttemptRow,
  type EventType,
  type MessageRawTable,
  type MessageStatus,
  type SuppressionRow,
} from './schema.js';
import { placeholders, type Statement } from './statement.js';
import type { RecordedEvent } from './webhook-enqueue.js';

/** An attempt's bytes as kept: gzip in base64, their size as sent, when they were signed. */
export type KeptRaw = Pick<MessageRawTable, 'raw' | 'size' | 'signed_at'>;

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
  /**
   * The bytes the attempt sent, compressed (messages-repo.ts compressRaw): they replace the message's
   * earlier ones, in the same transaction as the attempt (ARCHITECTURE.md, "Message content").
   */
  raw?: KeptRaw;
  /** The recipient to put on the account's suppression list (kept if already there). */
  suppression?: Omit<SuppressionRow, 'account_id' | 'source_message_id' | 'created_at'>;
  now: number;
  /**
   * What the record adds to the account's reputation counts if it is applied (reputation/counts.ts
   * deliveryDelta); a superseded record adds nothing (the receiver counted the change it made).
   */
  reputation?: ReputationDelta;
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
 * The steps of one record: yields each statement, is given back the number of rows it changed, and
 * returns what became of the record. A store runs them inside its transaction.
 */
export type RecordSteps = Generator<Statement, RecordOutcome, number>;

/** The one status guard: the message is still waiting for delivery. */
const STILL_QUEUED = `status in (${QUEUED_MESSAGE_STATUSES.map((s) => `'${s}'`).join(', ')})`;

const ATTEMPT_COLUMNS = [
  'id',
  'message_id',
  'account_id',
  'started_at',
  'duration_ms',
  'outcome',
  'remote_host',
  'remote_ip',
  'tls',
  'smtp_code',
  'enhanced_code',
  'reply',
  'source_ip',
  'tls_version',
  'tls_cipher',
  'tls_certificate',
  'tls_certificate_error',
  'tls_policy',
  'tls_fallback',
] as const satisfies readonly (keyof DeliveryAttemptRow)[];
/** The row's columns missing from ATTEMPT_COLUMNS: none, or the line below fails to compile. */
type MissingAttemptColumns = Exclude<keyof DeliveryAttemptRow, (typeof ATTEMPT_COLUMNS)[number]>;
const EVERY_ATTEMPT_COLUMN: [MissingAttemptColumns] extends [never] ? true : never = true;
void EVERY_ATTEMPT_COLUMN;

/** The record's new state, only while the lease is ours and the message still queued. */
const APPLY = `update messages set status = ?, next_attempt_at = ?, updated_at = ?, attempts = attempts + ?,
    category = coalesce(?, category), lease_owner = null, lease_expires_at = null
  where id = ? and lease_owner = ? and ${STILL_QUEUED}`;
/** A message no longer queued: out of the queue and the lease given back, its status kept. */
const RELEASE = `update messages set next_attempt_at = null, updated_at = ?, attempts = attempts + ?,
    lease_owner = null, lease_expires_at = null
  where id = ? and lease_owner = ?`;
const INSERT_ATTEMPT = `insert into delivery_attempts (${ATTEMPT_COLUMNS.join(', ')})
  values (${placeholders(ATTEMPT_COLUMNS.length)})`;
const KEEP_RAW = `insert into message_raw (message_id, account_id, raw, size, signed_at)
  values (${placeholders(5)})
  on conflict (message_id) do update set raw = excluded.raw, size = excluded.size, signed_at = excluded.signed_at`;

/** Keeps an attempt's bytes as the message's (they replace the earlier ones): a record's step. */
export function keepRawStatement(messageId: string, accountId: string, raw: KeptRaw): Statement {
  return { sql: KEEP_RAW, parameters: [messageId, accountId, raw.raw, raw.size, raw.signed_at] };
}
const INSERT_SUPPRESSION = `insert into suppressions
    (id, account_id, address, origin, reason, enhanced_code, source_message_id, created_at)
  values (${placeholders(8)}) on conflict (account_id, address) do nothing`;
/** The insert of a record's n events, by n. */
const insertEvents: string[] = [];
const eventsInsert = (n: number) =>
  (insertEvents[n] ??= `insert into events (id, message_id, account_id, type, created_at, data)
  values ${Array.from({ length: n }, () => `(${placeholders(6)})`).join(', ')}`);

/**
 * The statements of one record. Their text depends only on the number of events, so SQLite prepares
 * each once (db/sqlite/queue.ts).
 */
export function* recordSteps(r: AttemptRecord): RecordSteps {
  const counted = r.counted ? 1 : 0;
  // The category of the failure these events record, if any (event-category.ts); kept otherwise.
  const category = eventCategory(r.events);
  let outcome: RecordOutcome = 'applied';
  const applied = yield {
    sql: APPLY,
    parameters: [r.status, r.nextAttemptAt, r.now, counted, category, r.messageId, r.owner],
  };
  if (applied === 0) {
    // Not queued any more (or not ours): if the lease is still ours, give it back and take the
    // message out of the queue, keeping the status the receiver recorded.
    const released = yield { sql: RELEASE, parameters: [r.now, counted, r.messageId, r.owner] };
    if (released === 0) return 'lease_lost';
    outcome = 'superseded';
  }
  const a = r.attempt;
  if (a) yield { sql: INSERT_ATTEMPT, parameters: ATTEMPT_COLUMNS.map((c) => a[c]) };
  // What was sent is kept whether or not the record applied: the message went out.
  if (r.raw) yield keepRawStatement(r.messageId, r.accountId, r.raw);
  if (outcome === 'applied' && r.events.length > 0) {
    yield {
      sql: eventsInsert(r.events.length),
      parameters: r.events.flatMap((e) => [
        e.id,
        r.messageId,
        r.accountId,
        e.type,
        r.now,
        JSON.stringify(e.data),
      ]),
    };
  }
  const s = r.suppression;
  if (s) {
    yield {
      sql: INSERT_SUPPRESSION,
      parameters: [s.id, r.accountId, s.address, s.origin, s.reason, s.enhanced_code, r.messageId, r.now],
    };
  }
  return outcome;
}

/** The events of the records that were applied, for the webhook outbox (webhook-enqueue.ts). */
export function appliedEvents(
  records: readonly AttemptRecord[],
  outcomes: readonly RecordOutcome[],
): RecordedEvent[] {
  return records.flatMap((r, i) =>
    outcomes[i] === 'applied'
      ? r.events.map((e) => ({ id: e.id, account_id: r.accountId, type: e.type, created_at: r.now }))
      : [],
  );
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

/** The earliest next_attempt_at in the queue (null: none), the same statement on both databases. */
export const NEXT_DUE: Statement = {
  sql: 'select min(next_attempt_at) as next from messages where next_attempt_at is not null',
  parameters: [],
};
