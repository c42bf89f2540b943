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

/** A statement of the record; `returning`: it answers the ids of the messages it changed. */
export interface RecordStatement extends Statement {
  readonly returning?: true;
}

/** What a statement did: the rows it changed, and for a `returning` statement their message ids. */
export interface StepResult {
  changes: number;
  ids: readonly string[];
}

/**
 * The steps of a batch's record: yields each statement, is given back what it did, and returns what
 * became of each record, in order. A store runs them inside its transaction.
 */
export type RecordSteps = Generator<RecordStatement, RecordOutcome[], StepResult>;

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

/** Rows per statement at most: a larger batch is written in several (bounded text and parameters). */
const ROWS_PER_STATEMENT = 100;

/** `(?, ?, …), (?, ?, …)`: `rows` rows of the given placeholders. */
const rowsOf = (rows: number, row: string) => Array.from({ length: rows }, () => `(${row})`).join(', ');

/** A statement text by its number of rows, written once per number. */
function byRows(write: (rows: number) => string): (rows: number) => string {
  const texts: string[] = [];
  return (rows) => (texts[rows] ??= write(rows));
}

/**
 * The records' new state, each only while its lease is ours and the message still queued; answers the
 * ids it moved. The values carry their types (cast): PostgreSQL types a VALUES list from its rows, and a
 * placeholder alone is text to it.
 */
const APPLY = byRows(
  (n) => `with v (mid, new_status, next_at, at, counted, cat, owner) as (values ${rowsOf(
    n,
    '?, ?, cast(? as bigint), cast(? as bigint), cast(? as bigint), ?, ?',
  )})
  update messages set status = v.new_status, next_attempt_at = v.next_at, updated_at = v.at,
    attempts = messages.attempts + v.counted, category = coalesce(v.cat, messages.category),
    lease_owner = null, lease_expires_at = null
  from v where messages.id = v.mid and messages.lease_owner = v.owner and messages.${STILL_QUEUED}
  returning id`,
);
/** Messages no longer queued: out of the queue and the lease given back, their status kept. */
const RELEASE = byRows(
  (n) => `with v (mid, at, counted, owner) as (values ${rowsOf(
    n,
    '?, cast(? as bigint), cast(? as bigint), ?',
  )})
  update messages set next_attempt_at = null, updated_at = v.at, attempts = messages.attempts + v.counted,
    lease_owner = null, lease_expires_at = null
  from v where messages.id = v.mid and messages.lease_owner = v.owner
  returning id`,
);
const INSERT_ATTEMPTS = byRows(
  (n) => `insert into delivery_attempts (${ATTEMPT_COLUMNS.join(', ')})
  values ${rowsOf(n, placeholders(ATTEMPT_COLUMNS.length))}`,
);
const KEEP_RAW = byRows(
  (n) => `insert into message_raw (message_id, account_id, raw, size, signed_at)
  values ${rowsOf(n, placeholders(5))}
  on conflict (message_id) do update set raw = excluded.raw, size = excluded.size, signed_at = excluded.signed_at`,
);
/** Keeps an attempt's bytes as the message's (they replace the earlier ones), as a record does. */
export function keepRawStatement(messageId: string, accountId: string, raw: KeptRaw): Statement {
  return { sql: KEEP_RAW(1), parameters: [messageId, accountId, raw.raw, raw.size, raw.signed_at] };
}
const INSERT_EVENTS = byRows(
  (n) => `insert into events (id, message_id, account_id, type, created_at, data)
  values ${rowsOf(n, placeholders(6))}`,
);
const INSERT_SUPPRESSIONS = byRows(
  (n) => `insert into suppressions
    (id, account_id, address, origin, reason, enhanced_code, source_message_id, created_at)
  values ${rowsOf(n, placeholders(8))} on conflict (account_id, address) do nothing`,
);

/**
 * The statements that write `rows`, ROWS_PER_STATEMENT at a time (`text(n)` for n rows, `values(row)`
 * a row's parameters); returns the ids a `returning` statement answered.
 */
function* writeRows<T>(
  rows: readonly T[],
  text: (n: number) => string,
  values: (row: T) => unknown[],
  returning?: true,
): Generator<RecordStatement, string[], StepResult> {
  const ids: string[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(i, i + ROWS_PER_STATEMENT);
    const parameters = chunk.flatMap(values);
    const done = yield returning
      ? { sql: text(chunk.length), parameters, returning }
      : { sql: text(chunk.length), parameters };
    ids.push(...done.ids);
  }
  return ids;
}

/** The records' indexes in rounds in which no message appears twice, each in the order they came. */
function rounds(records: readonly AttemptRecord[]): number[][] {
  const result: number[][] = [];
  const seen = new Map<string, number>();
  records.forEach((r, i) => {
    const n = seen.get(r.messageId) ?? 0;
    seen.set(r.messageId, n + 1);
    (result[n] ??= []).push(i);
  });
  return result;
}

/** The state statements of records of distinct messages: what became of each. */
function* moveMessages(
  records: readonly AttemptRecord[],
): Generator<RecordStatement, RecordOutcome[], StepResult> {
  const counted = (r: AttemptRecord) => (r.counted ? 1 : 0);
  const applied = new Set(
    yield* writeRows(
      records,
      APPLY,
      (r) => [
        r.messageId,
        r.status,
        r.nextAttemptAt,
        r.now,
        counted(r),
        // The category of the failure these events record, if any (event-category.ts); kept otherwise.
        eventCategory(r.events),
        r.owner,
      ],
      true,
    ),
  );
  // Not queued any more (or not ours): where the lease is still ours, give it back and take the
  // message out of the queue, keeping the status the receiver recorded.
  const released = new Set(
    yield* writeRows(
      records.filter((r) => !applied.has(r.messageId)),
      RELEASE,
      (r) => [r.messageId, r.now, counted(r), r.owner],
      true,
    ),
  );
  return records.map((r): RecordOutcome =>
    applied.has(r.messageId) ? 'applied' : released.has(r.messageId) ? 'superseded' : 'lease_lost',
  );
}

/**
 * The statements of a batch's record: one of each kind whatever the batch's size (up to
 * ROWS_PER_STATEMENT records), each writing every record's rows of its kind. Their text depends only on
 * the numbers of rows, so SQLite prepares each once (db/sqlite/queue.ts), and on PostgreSQL a batch
 * costs the round trips of one record.
 */
export function* recordSteps(records: readonly AttemptRecord[]): RecordSteps {
  const outcomes: RecordOutcome[] = new Array<RecordOutcome>(records.length);
  // A message's records in one batch (a stale lease's and the current one's) are told apart by the
  // order they came in: one round of the state statements per repeat (almost always one in all).
  for (const round of rounds(records)) {
    const moved = yield* moveMessages(round.map((i) => records[i]!));
    for (const [k, i] of round.entries()) outcomes[i] = moved[k]!;
  }
  const stored = records.filter((_, i) => outcomes[i] !== 'lease_lost');
  yield* writeRows(
    stored.flatMap((r) => (r.attempt ? [r.attempt] : [])),
    INSERT_ATTEMPTS,
    (a) => ATTEMPT_COLUMNS.map((c) => a[c]),
  );
  // What was sent is kept whether or not the record applied: the message went out.
  yield* writeRows(
    stored.flatMap((r) => (r.raw ? [{ r, raw: r.raw }] : [])),
    KEEP_RAW,
    ({ r, raw }) => [r.messageId, r.accountId, raw.raw, raw.size, raw.signed_at],
  );
  yield* writeRows(
    records.flatMap((r, i) => (outcomes[i] === 'applied' ? r.events.map((e) => ({ r, e })) : [])),
    INSERT_EVENTS,
    ({ r, e }) => [e.id, r.messageId, r.accountId, e.type, r.now, JSON.stringify(e.data)],
  );
  yield* writeRows(
    stored.flatMap((r) => (r.suppression ? [{ r, s: r.suppression }] : [])),
    INSERT_SUPPRESSIONS,
    ({ r, s }) => [s.id, r.accountId, s.address, s.origin, s.reason, s.enhanced_code, r.messageId, r.now],
  );
  return outcomes;
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

/**
 * The earliest next_attempt_at in the queue of a message no live lease holds (null: none), the same
 * statement on both databases. A leased message is not claimable however due it is: counted, it made
 * every wait 0 while attempts hung in flight with slots free, and the worker claimed and asked again
 * hundreds of times a second (a review). The due index is read in order, past the few leased rows at
 * its head, to the first that is free; a lease that ends unreleased is found at the next poll.
 */
export function nextDueStatement(now: number): Statement {
  return {
    sql: `select next_attempt_at as next from messages
          where next_attempt_at is not null and (lease_expires_at is null or lease_expires_at <= ?)
          order by next_attempt_at limit 1`,
    parameters: [now],
  };
}

/**
 * The expiry pass's claim (QueueStore.claimExpired): waiting messages past their deadline that no live
 * lease holds, earliest deadline first, leased to the pass. `lock`: PostgreSQL's row lock, so that two
 * passes (or a pass and a fair claim) never lease one message twice; SQLite's one writer needs none.
 * Reads the partial index messages_deadline (migration 043).
 */
export function expiredClaimStatement(
  owner: string,
  now: number,
  leaseUntil: number,
  limit: number,
  lock: boolean,
): Statement {
  return {
    sql: `update messages set lease_owner = ?, lease_expires_at = ?
          where id in (select id from messages
                       where deadline_at is not null and next_attempt_at is not null and deadline_at <= ?
                         and (lease_expires_at is null or lease_expires_at <= ?)
                       order by deadline_at limit ?${lock ? ' for update skip locked' : ''})
          returning *`,
    parameters: [owner, leaseUntil, now, now, limit],
  };
}

/**
 * Which due mail with a deadline to lease: for each account of a map, up to its number (the claim's
 * swap); or one per account, `limit` in all, none of the accounts in `except` (the worker's lane).
 */
export type LanePick = ReadonlyMap<string, number> | { limit: number; except?: readonly string[] };

/**
 * Leases due messages with a deadline that no live lease holds, each account's nearest deadline first
 * (then the earliest due), to `owner`: for the claim's swap (QueueRepo.claimDue), up to each account's
 * number in `pick`; for the worker's lane (QueueRepo.claimLane), one per account not in `pick.except`,
 * still before its deadline (one past it is the expiry pass's), the accounts' earliest due first, up to
 * `pick.limit` in all. Reads the partial index messages_account_due_deadline (migration 043). On
 * PostgreSQL the rows are locked (skipping those another claim holds, as the fair claim does) and
 * answered with their bodies, as the claim's are; on SQLite the leased rows alone (the store reads
 * their bodies).
 */
export function deadlineLaneStatement(
  owner: string,
  now: number,
  leaseUntil: number,
  pick: LanePick,
  dialect: 'sqlite' | 'postgres',
): Statement {
  const pg = dialect === 'postgres';
  const due = `m.deadline_at is not null and m.next_attempt_at is not null and m.next_attempt_at <= ?
                             and (m.lease_expires_at is null or m.lease_expires_at <= ?)`;
  // Within an account, the nearest deadline first (then the order it became due): a 60-second code does
  // not wait behind the account's 10-minute ones (a fault probe saw one expire so, behind codes stuck at
  // a server that never answered).
  const rank =
    'row_number() over (partition by m.account_id order by m.deadline_at, m.next_attempt_at, m.id) as k';
  let wanted = '';
  let chosen: string;
  let parameters: unknown[];
  if (pick instanceof Map) {
    const accounts = [...(pick as ReadonlyMap<string, number>)];
    wanted = `wanted(account_id, n) as (values ${accounts.map(() => '(cast(? as text), cast(? as integer))').join(', ')})`;
    chosen = `select id from (select m.id, w.n, ${rank}
                              from wanted as w join messages as m on m.account_id = w.account_id
                              where ${due}) as ranked
              where k <= n`;
    parameters = [...accounts.flat()];
  } else {
    const { limit, except = [] } = pick as { limit: number; except?: readonly string[] };
    const others = except.length > 0 ? ` and m.account_id not in (${placeholders(except.length)})` : '';
    chosen = `select id from (select m.id, m.next_attempt_at as at, ${rank} from messages as m
                               where ${due} and m.deadline_at > ?${others}) as ranked
              where k = 1 order by at, id limit ${Math.max(0, Math.floor(limit))}`;
    parameters = [now, ...except];
  }
  const update = `update messages set lease_owner = ?, lease_expires_at = ?
          where id in (select id from messages where id in (${chosen})
                       and (lease_expires_at is null or lease_expires_at <= ?)${pg ? ' for update skip locked' : ''})
          returning *`;
  parameters =
    pick instanceof Map
      ? [...parameters, owner, leaseUntil, now, now, now]
      : [owner, leaseUntil, now, now, ...parameters, now];
  const answer = `select leased.*, coalesce(b.html, '') as html, coalesce(b.sealed, 0) = 1 as sealed
         from leased left join message_bodies as b on b.message_id = leased.id`;
  return {
    sql: pg
      ? `with ${wanted ? `${wanted}, ` : ''}leased as (${update}) ${answer}`
      : `${wanted ? `with ${wanted} ` : ''}${update}`,
    parameters,
  };
}

/** Gives back `owner`'s leases on `ids` (the claim's swap: QueueRepo.claimDue). */
export function releaseStatement(owner: string, ids: readonly string[]): Statement {
  return {
    sql: `update messages set lease_owner = null, lease_expires_at = null
          where lease_owner = ? and id in (${placeholders(ids.length)})`,
    parameters: [owner, ...ids],
  };
}
