// The webhook outbox's one write on the event path: run inside the transaction that records events, so
// an event and its pushes to every subscribed endpoint commit together or not at all.
//
// Cheap on purpose (it runs for every delivery result): types no endpoint can subscribe to cost nothing;
// the others cost one indexed read of the account's endpoints, and a write only per endpoint that is
// enabled and subscribed. The fan-out happens in SQL, so there is no cache that could miss an endpoint
// created a moment ago.
//
// The statements are the webhook enqueue seam (seams.ts WebhookEnqueue): the delivery queue's record
// runs its database's (db/sqlite/webhook-enqueue.ts, db/postgres/webhook-enqueue.ts). Transactions
// that run through Kysely on either database (the receiver's, the reputation guard's) call
// `enqueueWebhookEvents(trx, events)`: one statement for the whole batch, which both databases run.
import type { Kysely } from 'kysely';
import { WEBHOOK_EVENT_TYPES, type Database, type EventType } from './schema.js';
import { executeStatement, type Statement } from './statement.js';

/** The identity of a recorded event: what the outbox needs to find it again. */
export interface RecordedEvent {
  id: string;
  account_id: string;
  type: EventType;
  created_at: number;
}

const SUBSCRIBABLE = new Set<string>(WEBHOOK_EVENT_TYPES);

/** The events an endpoint can subscribe to: the others are not looked up at all. */
export function subscribable(events: RecordedEvent[]): RecordedEvent[] {
  return events.filter((e) => SUBSCRIBABLE.has(e.type));
}

/** The LIKE pattern that finds `type` in a webhooks.event_types list (`_` is a LIKE wildcard). */
export function eventTypePattern(type: string): string {
  return `%,${type.replace(/[\\%_]/g, (c) => '\\' + c)},%`;
}

/** One VALUES row per event: its id, account, time and the pattern of its type. */
const VALUES_ROW = `(cast(? as text), cast(? as text), cast(? as bigint), cast(? as text))`;

/**
 * The fan-out of a batch of events in one statement (none: undefined), on either database: a VALUES
 * list of the events joined to their accounts' endpoints.
 */
export function fanOutStatement(events: RecordedEvent[]): Statement | undefined {
  const pushed = subscribable(events);
  if (pushed.length === 0) return undefined;
  // VALUES columns are named column1… in both dialects; PostgreSQL types untyped parameters as text.
  return {
    sql: `insert into webhook_outbox
        (id, webhook_id, event_id, account_id, status, attempts, created_at, next_attempt_at)
      select e.column1 || ':' || w.id, w.id, e.column1, w.account_id, 'pending', 0, e.column3, e.column3
      from (values ${pushed.map(() => VALUES_ROW).join(', ')}) as e
      join webhooks w on w.account_id = e.column2
      where w.enabled = 1 and w.event_types like e.column4 escape '\\'`,
    parameters: pushed.flatMap((e) => [e.id, e.account_id, e.created_at, eventTypePattern(e.type)]),
  };
}

/**
 * Fans the events out to their accounts' enabled endpoints subscribed to each event's type, in `trx`
 * (fanOutStatement). Returns the number of pushes queued.
 */
export async function enqueueWebhookEvents(trx: Kysely<Database>, events: RecordedEvent[]): Promise<number> {
  const statement = fanOutStatement(events);
  if (!statement) return 0;
  return executeStatement(trx, statement);
}
