// Webhook endpoints, their attempts, and the payloads they receive (docs/design.md §8; docs/API.md,
// Webhooks): the endpoints' shapes are shared by $ref, the payloads are the document's `webhooks:`.
import { WEBHOOK_EVENT_TYPES } from '../../db/schema.js';
import { isoTime, nullable, nullableIsoTime, ref } from './responses.js';

const webhookEventType = {
  $id: 'WebhookEventType',
  type: 'string',
  enum: WEBHOOK_EVENT_TYPES,
  description: 'An event an endpoint can subscribe to',
} as const;

const webhookProperties = {
  id: { type: 'string' },
  url: { type: 'string' },
  description: { type: 'string' },
  events: { type: 'array', items: ref('WebhookEventType') },
  enabled: { type: 'boolean' },
  disabled_reason: { type: ['string', 'null'], description: 'Who or what disabled it; null when enabled' },
  created_at: isoTime,
  updated_at: isoTime,
} as const;

const closed = (id: string, properties: Record<string, object>, optional: string[] = []) =>
  ({
    $id: id,
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((p) => !optional.includes(p)),
    properties,
  }) as const;

const secretProperties = {
  secret: { type: 'string', description: 'whsec_…' },
  previous_secret_expires_at: {
    ...nullableIsoTime,
    description: 'Until when the previous secret signs too (24 hours after a rotation); null: none',
  },
} as const;

const webhook = closed('Webhook', webhookProperties);
const webhookWithRotation = closed('WebhookDetail', {
  ...webhookProperties,
  previous_secret_expires_at: secretProperties.previous_secret_expires_at,
});
const newWebhook = closed('NewWebhook', { ...webhookProperties, secret: secretProperties.secret });
const webhookSecret = closed('WebhookSecret', secretProperties);

const webhookAttempt = closed('WebhookAttempt', {
  id: { type: 'string' },
  event_id: { type: 'string' },
  event_type: { type: 'string', description: 'The event type, or webhook.test' },
  attempt: { type: 'integer', description: '1 for the first attempt of that event' },
  success: { type: 'boolean' },
  status_code: { type: ['integer', 'null'], description: 'null without a response' },
  duration_ms: { type: 'integer' },
  response: { type: ['string', 'null'], description: 'The first KiB of the body' },
  error: { type: ['string', 'null'], description: 'What went wrong without a response' },
  created_at: isoTime,
});

const webhookReplay = closed('WebhookReplay', {
  webhook_id: { type: 'string' },
  event_id: { type: 'string' },
  status: { type: 'string', enum: ['queued'] },
});

const eventReplay = closed('EventReplay', {
  event_id: { type: 'string' },
  webhook_ids: { type: 'array', items: { type: 'string' }, description: 'The endpoints it is queued for' },
  status: { type: 'string', enum: ['queued'] },
});

// The payloads. The details are the event's own record: the fields below are the common ones, and a
// type may carry more (docs/API.md, Events).
const emailFields = {
  email_id: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  subject: { type: 'string' },
  email_created_at: isoTime,
} as const;

const deliveryFields = {
  attempt: { type: 'integer' },
  smtp_code: { type: ['integer', 'null'] },
  enhanced_code: { type: ['string', 'null'] },
  reply: { type: ['string', 'null'] },
  remote_host: { type: ['string', 'null'] },
  remote_ip: { type: ['string', 'null'] },
  tls: { type: 'boolean' },
  tls_details: nullable(ref('TlsDetails')),
  reason: { type: 'string' },
} as const;

const emailEventData = (required: string[], extra: Record<string, object> = {}) => ({
  type: 'object',
  additionalProperties: true,
  required: [...Object.keys(emailFields), ...required],
  properties: { ...emailFields, ...deliveryFields, ...extra },
});

const category = { ...nullable(ref('BounceCategory')), description: 'Why; null when the event has none' };

/** A payload: `{"type", "created_at", "data"}`. */
const payload = (id: string, type: string, data: object, description: string) => ({
  $id: id,
  type: 'object',
  description,
  additionalProperties: false,
  required: ['type', 'created_at', 'data'],
  properties: { type: { type: 'string', enum: [type] }, created_at: isoTime, data },
});

const accountData = {
  type: 'object',
  additionalProperties: true,
  required: ['account_id', 'status', 'reason', 'bounce_rate', 'complaint_rate', 'messages', 'window_days'],
  properties: {
    account_id: { type: 'string' },
    status: { type: 'string', enum: ['warning', 'paused'] },
    reason: { type: 'string' },
    bounce_rate: { type: 'number' },
    complaint_rate: { type: 'number' },
    messages: { type: 'integer' },
    window_days: { type: 'integer' },
  },
};

const PAYLOADS = {
  'email.delivered': payload(
    'EmailDeliveredEvent',
    'email.delivered',
    emailEventData([]),
    "The recipient's server accepted the message",
  ),
  'email.bounced': payload(
    'EmailBouncedEvent',
    'email.bounced',
    emailEventData(['category'], {
      category,
      bounce_type: { type: 'string', enum: ['permanent', 'undetermined'] },
    }),
    "The recipient's server refused it permanently, or a bounce came back",
  ),
  'email.complained': payload(
    'EmailComplainedEvent',
    'email.complained',
    emailEventData(['category'], { category, feedback_type: { type: 'string' } }),
    'The recipient reported it as spam, or asked to unsubscribe',
  ),
  'email.delivery_delayed': payload(
    'EmailDeliveryDelayedEvent',
    'email.delivery_delayed',
    emailEventData(['category'], {
      category,
      bounce_type: { type: 'string', enum: ['transient'] },
      next_attempt_at: isoTime,
      greylisted: { type: 'boolean' },
      sender_block: { type: 'boolean' },
    }),
    'A temporary failure; the message is retried',
  ),
  'email.failed': payload(
    'EmailFailedEvent',
    'email.failed',
    emailEventData(['category'], {
      category,
      last_category: nullable(ref('BounceCategory')),
      expired_at: isoTime,
      detail: { type: 'string' },
      attempts: { type: 'integer' },
      sender_domain: { type: 'string' },
      domain_status: { type: ['string', 'null'] },
    }),
    'txmail gave up: the message expired, or it cannot be sent',
  ),
  'account.warning': payload(
    'AccountWarningEvent',
    'account.warning',
    accountData,
    "The account's bounce or complaint rate reached its warning threshold",
  ),
  'account.paused': payload(
    'AccountPausedEvent',
    'account.paused',
    accountData,
    "The account's bounce or complaint rate reached its pause threshold; sends are refused",
  ),
} satisfies Record<(typeof WEBHOOK_EVENT_TYPES)[number], object>;

const testPayload = payload(
  'WebhookTestEvent',
  'webhook.test',
  {
    type: 'object',
    additionalProperties: false,
    required: ['webhook_id', 'message'],
    properties: { webhook_id: { type: 'string' }, message: { type: 'string' } },
  },
  'POST /api/webhooks/:id/test',
);

export const webhookSchemas = [
  webhookEventType,
  webhook,
  webhookWithRotation,
  newWebhook,
  webhookSecret,
  webhookAttempt,
  webhookReplay,
  eventReplay,
  ...Object.values(PAYLOADS),
  testPayload,
];

const SIGNATURE_HEADERS = [
  ['webhook-id', "The event's id: the same on every retry and replay; deduplicate on it"],
  ['webhook-timestamp', 'Unix seconds when this attempt was signed'],
  [
    'webhook-signature',
    'v1,<base64 HMAC-SHA256 of id.timestamp.body>; several, space-separated, after a rotation',
  ],
] as const;

/** The OpenAPI 3.1 `webhooks:` object: what txmail POSTs to an endpoint for each event type. */
export function openApiWebhooks(): Record<string, object> {
  const entries = [...Object.values(PAYLOADS), testPayload].map((p) => [
    p.properties.type.enum[0],
    {
      post: {
        summary: p.description,
        parameters: SIGNATURE_HEADERS.map(([name, description]) => ({
          name,
          in: 'header',
          required: true,
          description,
          schema: { type: 'string' },
        })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${p.$id}` } } },
        },
        responses: {
          '2XX': { description: 'Received; any other answer (or none within 15 s) is retried' },
          '410': { description: 'Gone: the endpoint is disabled at once' },
        },
      },
    },
  ]);
  return Object.fromEntries(entries);
}
