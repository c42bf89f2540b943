// The webhook enqueue seam on PostgreSQL: the batch's events in one statement (webhook-enqueue.ts
// fanOutStatement), since every statement is a round trip inside the recording transaction.
import type { WebhookEnqueue } from '../seams.js';
import { fanOutStatement } from '../webhook-enqueue.js';

export const postgresWebhookEnqueue: WebhookEnqueue = {
  statements: (events) => {
    const statement = fanOutStatement(events);
    return statement ? [statement] : [];
  },
};
