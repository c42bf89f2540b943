// The JSON body of a push, shaped like Resend's: `{"type", "created_at", "data": {"email_id", "from",
// "to", "subject", …the event's details}}`. The details are the event's own record (SMTP reply, codes,
// bounce type…), so the webhook says exactly what the delivery log says. An event about the account
// (`account.warning`, `account.paused`) has no message: its data is its record alone.
import { isBounceCategory } from '../bounce/categories.js';
import type { WebhookJob } from '../db/webhook-outbox-repo.js';
import { displayAddress } from '../messages/address.js';

/**
 * The events whose payload always has `data.category` (docs/API.md): the category the event was
 * recorded with (one of BOUNCE_CATEGORIES), or null when it carries none (e.g. recorded before
 * categories existed), so a consumer can rely on the field being there.
 */
const CATEGORIZED_EVENTS = new Set([
  'email.bounced',
  'email.delivery_delayed',
  'email.complained',
  'email.failed',
]);

export interface WebhookPayload {
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

export function eventPayload(job: Pick<WebhookJob, 'event' | 'message'>): WebhookPayload {
  const { event, message } = job;
  let details: Record<string, unknown> = {};
  try {
    details = JSON.parse(event.data) as Record<string, unknown>;
  } catch {
    /* a malformed record still yields the message's fields */
  }
  if (message === null) {
    return { type: event.type, created_at: new Date(event.created_at).toISOString(), data: details };
  }
  return {
    type: event.type,
    created_at: new Date(event.created_at).toISOString(),
    data: {
      ...details,
      ...(CATEGORIZED_EVENTS.has(event.type) ? { category: categoryOf(details) } : {}),
      email_id: message.id,
      from: displayAddress(message.from_name, message.from_email),
      to: displayAddress(message.to_name, message.to_email),
      subject: message.subject,
      email_created_at: new Date(message.created_at).toISOString(),
    },
  };
}

/** The body of `POST /api/webhooks/:id/test`. */
export function testPayload(webhookId: string, now: number): WebhookPayload {
  return {
    type: 'webhook.test',
    created_at: new Date(now).toISOString(),
    data: { webhook_id: webhookId, message: 'This is a test event from txmail.' },
  };
}

function categoryOf(details: Record<string, unknown> | null): string | null {
  const category = details?.category;
  return typeof category === 'string' && isBounceCategory(category) ? category : null;
}
