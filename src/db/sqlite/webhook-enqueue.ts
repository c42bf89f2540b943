// The webhook enqueue seam on SQLite: one statement per event, whose text never changes, so the
// connection prepares it once (db/sqlite/queue.ts); a VALUES list would be a new statement for every
// batch size, and SQLite has no round trip to save.
import { sql } from 'kysely';
import type { WebhookEnqueue } from '../seams.js';
import { eventTypePattern, subscribable } from '../webhook-enqueue.js';

export const sqliteWebhookEnqueue: WebhookEnqueue = {
  statements: (events) =>
    subscribable(events).map(
      (e) => sql`insert into webhook_outbox
          (id, webhook_id, event_id, account_id, status, attempts, created_at, next_attempt_at)
        select ${e.id} || ':' || id, id, ${e.id}, account_id, 'pending', 0, ${e.created_at}, ${e.created_at}
        from webhooks where account_id = ${e.account_id} and enabled = 1
          and event_types like ${eventTypePattern(e.type)} escape '\\'`,
    ),
};
