// Webhook endpoints and queued pushes put straight into the database, the way the worker's record puts
// them there: events of a delivered message, fanned out to the account's endpoints by
// enqueueWebhookEvents in the transaction that inserts the events.
import type { Kysely } from 'kysely';
import type { Database, WebhookRow } from '../../src/db/schema.js';
import { enqueueWebhookEvents } from '../../src/db/webhook-enqueue.js';
import { newId } from '../../src/ids.js';
import { messageRow } from './message-row.js';

/** `n` bare accounts (no key, no domain), inserted at once; their ids. */
export async function insertAccounts(db: Kysely<Database>, n: number): Promise<string[]> {
  const rows = Array.from({ length: n }, () => {
    const id = newId();
    return {
      id,
      email: `owner-${id}@customer.example`,
      password_hash: null,
      plan: 'pro' as const,
      state: 'production' as const,
      suspended_at: null,
      created_at: 1,
      email_verified_at: 1,
    };
  });
  await db.insertInto('accounts').values(rows).execute();
  return rows.map((r) => r.id);
}

/**
 * An endpoint of the account: by default enabled and subscribed to email.delivered; `eventTypes` as
 * stored (`,email.delivered,email.bounced,`).
 */
export async function insertEndpoint(
  db: Kysely<Database>,
  accountId: string,
  options: { url?: string; eventTypes?: string; enabled?: 0 | 1 } = {},
): Promise<WebhookRow> {
  const row: WebhookRow = {
    id: newId(),
    account_id: accountId,
    url: options.url ?? 'https://hooks.example.com/',
    description: '',
    event_types: options.eventTypes ?? ',email.delivered,',
    enabled: options.enabled ?? 1,
    disabled_reason: null,
    secret: 'sealed',
    previous_secret: null,
    previous_secret_until: null,
    created_at: 1,
    updated_at: 1,
  };
  await db.insertInto('webhooks').values(row).execute();
  return row;
}

/**
 * Records `dues.length` email.delivered events of one delivered message of the account, the i-th at
 * `dues[i]`, and queues their pushes to every endpoint of the account (due at the event's time). Returns
 * the event ids in order.
 */
export async function queuePushes(
  db: Kysely<Database>,
  accountId: string,
  dues: number[],
): Promise<string[]> {
  const message = messageRow(accountId, { status: 'delivered', next_attempt_at: null });
  await db.insertInto('messages').values(message).execute();
  const ids: string[] = [];
  // Batches keep each statement under SQLite's 32,766 bound parameters.
  for (let i = 0; i < dues.length; i += 1000) {
    const events = dues.slice(i, i + 1000).map((due) => ({
      id: newId(),
      message_id: message.id,
      account_id: accountId,
      type: 'email.delivered' as const,
      created_at: due,
      data: '{}',
    }));
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('events').values(events).execute();
      await enqueueWebhookEvents(trx, events);
    });
    ids.push(...events.map((e) => e.id));
  }
  return ids;
}

/** `n` due times one millisecond apart from `first`. */
export function dueTimes(first: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => first + i);
}
