// The webhook outbox's one write on the event path: called inside the transaction that records events,
// so an event and its pushes to every subscribed endpoint commit together or not at all.
//
// Cheap on purpose (it runs for every delivery result): types no endpoint can subscribe to cost nothing;
// the others cost one indexed read of the account's endpoints, and a write only per endpoint that is
// enabled and subscribed. The fan-out happens in SQL, so there is no cache that could miss an endpoint
// created a moment ago.
//
// Whoever records events (the delivery worker today, the bounce and complaint receiver next) calls
// `enqueueWebhookEvents(trx, events)` inside its own transaction, or on SQLite's prepared-statement
// path `prepareWebhookEnqueue(sqlite)` once and the returned function inside its transaction.
import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { WEBHOOK_EVENT_TYPES, type Database, type EventType } from './schema.js';

/** The identity of a recorded event: what the outbox needs to find it again. */
export interface RecordedEvent {
  id: string;
  account_id: string;
  type: EventType;
  created_at: number;
}

const SUBSCRIBABLE = new Set<string>(WEBHOOK_EVENT_TYPES);

/** The LIKE pattern that finds `type` in a webhooks.event_types list (`_` is a LIKE wildcard). */
export function eventTypePattern(type: string): string {
  return `%,${type.replace(/[\\%_]/g, (c) => '\\' + c)},%`;
}

/**
 * Fans the events out to their accounts' enabled endpoints subscribed to each event's type, in `trx`.
 * One statement for the whole batch, however many events: on PostgreSQL every statement is a round trip
 * inside the recording transaction. Returns the number of pushes queued.
 */
export async function enqueueWebhookEvents(trx: Kysely<Database>, events: RecordedEvent[]): Promise<number> {
  const pushed = events.filter((e) => SUBSCRIBABLE.has(e.type));
  if (pushed.length === 0) return 0;
  // VALUES columns are named column1… in both dialects; PostgreSQL types untyped parameters as text.
  const rows = sql.join(
    pushed.map(
      (e) =>
        sql`(cast(${e.id} as text), cast(${e.account_id} as text), cast(${e.created_at} as bigint), cast(${eventTypePattern(e.type)} as text))`,
    ),
  );
  const r = await sql`insert into webhook_outbox
      (id, webhook_id, event_id, account_id, status, attempts, created_at, next_attempt_at)
    select e.column1 || ':' || w.id, w.id, e.column1, w.account_id, 'pending', 0, e.column3, e.column3
    from (values ${rows}) as e
    join webhooks w on w.account_id = e.column2
    where w.enabled = 1 and w.event_types like e.column4 escape '\\'`.execute(trx);
  return Number(r.numAffectedRows ?? 0n);
}

/**
 * The same fan-out as a prepared statement, for transactions run on the raw SQLite connection; the
 * returned function gives the number of pushes queued.
 */
export function prepareWebhookEnqueue(sqlite: SQLite.Database): (events: RecordedEvent[]) => number {
  const fanOut = sqlite.prepare<[string, string, number, number, string, string]>(
    `insert into webhook_outbox (id, webhook_id, event_id, account_id, status, attempts, created_at, next_attempt_at)
     select ? || ':' || id, id, ?, account_id, 'pending', 0, ?, ?
     from webhooks where account_id = ? and enabled = 1 and event_types like ? escape '\\'`,
  );
  return (events) => {
    let rows = 0;
    for (const e of events) {
      if (!SUBSCRIBABLE.has(e.type)) continue;
      rows += fanOut.run(
        e.id,
        e.id,
        e.created_at,
        e.created_at,
        e.account_id,
        eventTypePattern(e.type),
      ).changes;
    }
    return rows;
  };
}
