// The webhook enqueue seam on SQLite: one statement per event, whose text never changes, so the
// connection prepares it once (db/sqlite/queue.ts); a VALUES list would be a new statement for every
// batch size, and SQLite has no round trip to save.
import type { WebhookEnqueue } from '../seams.js';
import { eventTypePattern, subscribable } from '../webhook-enqueue.js';

const FAN_OUT = `insert into webhook_outbox
    (id, webhook_id, event_id, account_id, status, attempts, created_at, next_attempt_at)
  select ? || ':' || id, id, ?, account_id, 'pending', 0, ?, ?
  from webhooks where account_id = ? and enabled = 1 and event_types like ? escape '\\'`;

export const sqliteWebhookEnqueue: WebhookEnqueue = {
  statements: (events) =>
    subscribable(events).map((e) => ({
      sql: FAN_OUT,
      parameters: [e.id, e.id, e.created_at, e.created_at, e.account_id, eventTypePattern(e.type)],
    })),
};
