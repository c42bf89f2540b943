// The delivery log's shapes (GET /api/emails, GET /api/emails/:id; docs/API.md), shared by $ref.
import { BOUNCE_CATEGORIES } from '../../bounce/categories.js';
import type { EventType, MessageStatus } from '../../db/schema.js';
import { sendResponseSchema } from '../../messages/send-request.js';
import { isoTime, nullable, nullableIsoTime, ref } from './responses.js';

export const MESSAGE_STATUSES = [
  'queued',
  'deferred',
  'delivered',
  'bounced',
  'failed',
  'complained',
  'test',
] as const satisfies readonly MessageStatus[];

/** Every event a message's history can hold (db/schema.ts EventType). */
export const EMAIL_EVENT_TYPES = [
  'email.queued',
  'email.delivered',
  'email.delivery_delayed',
  'email.bounced',
  'email.complained',
  'email.failed',
  'email.test',
  'email.report_received',
] as const satisfies readonly EventType[];

const bounceCategory = {
  $id: 'BounceCategory',
  type: 'string',
  enum: BOUNCE_CATEGORIES,
  description: 'Why something came back (docs/API.md, Bounce categories); stable, new ones may be added',
} as const;

const emailStatus = { $id: 'EmailStatus', type: 'string', enum: MESSAGE_STATUSES } as const;

const nextStepSchema = {
  $id: 'NextStep',
  type: 'object',
  additionalProperties: false,
  required: ['at', 'reason', 'why', 'attempt', 'expires_at'],
  description: 'Why a queued or deferred message waits and when it is tried next (messages/next-step.ts)',
  properties: {
    at: isoTime,
    reason: {
      type: 'string',
      enum: ['delivering', 'due', 'destination_paused', 'throttled', 'retry', 'account_paused'],
    },
    why: { type: 'string' },
    attempt: { type: 'integer', description: 'The attempt that comes next (1: the first)' },
    expires_at: isoTime,
  },
} as const;

/** The fields of a message in the log; the detail adds to them. */
const summaryProperties = {
  id: { type: 'string' },
  status: ref('EmailStatus'),
  category: {
    ...nullable(ref('BounceCategory')),
    description: "The category of the message's latest failure, delay or complaint; null when none",
  },
  from: { type: 'string' },
  to: { type: 'string' },
  subject: { type: 'string' },
  created_at: isoTime,
  updated_at: isoTime,
  attempts: { type: 'integer', description: 'Delivery attempts so far' },
  next_attempt_at: nullableIsoTime,
  next: { ...nullable(ref('NextStep')), description: 'Null unless queued or deferred' },
} as const;

const email = {
  $id: 'Email',
  type: 'object',
  additionalProperties: false,
  required: Object.keys(summaryProperties),
  properties: summaryProperties,
} as const;

const emailEvent = {
  $id: 'EmailEvent',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'type', 'created_at', 'data'],
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: [...EMAIL_EVENT_TYPES, 'account.warning', 'account.paused'] },
    created_at: isoTime,
    data: {
      type: 'object',
      additionalProperties: true,
      description: "The event's details (SMTP reply, bounce, complaint…: docs/API.md, Events)",
    },
  },
} as const;

const tlsDetails = {
  $id: 'TlsDetails',
  type: 'object',
  additionalProperties: false,
  required: ['version', 'cipher', 'certificate', 'certificate_error', 'policy', 'cleartext_fallback'],
  properties: {
    version: { type: ['string', 'null'], description: 'e.g. TLSv1.3; null without TLS' },
    cipher: { type: ['string', 'null'] },
    certificate: { type: ['string', 'null'], enum: ['valid', 'invalid', null] },
    certificate_error: { type: ['string', 'null'] },
    policy: { type: 'string', description: 'opportunistic, required, mta-sts or mta-sts-testing' },
    cleartext_fallback: { type: 'boolean' },
  },
} as const;

const deliveryAttempt = {
  $id: 'DeliveryAttempt',
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'started_at',
    'duration_ms',
    'outcome',
    'remote_host',
    'remote_ip',
    'tls',
    'tls_details',
    'smtp_code',
    'enhanced_code',
    'reply',
    'source_ip',
  ],
  properties: {
    id: { type: 'string' },
    started_at: isoTime,
    duration_ms: { type: 'integer' },
    outcome: { type: 'string', enum: ['delivered', 'deferred', 'bounced', 'failed'] },
    remote_host: { type: ['string', 'null'] },
    remote_ip: { type: ['string', 'null'] },
    tls: { type: 'boolean' },
    tls_details: nullable(ref('TlsDetails')),
    smtp_code: { type: ['integer', 'null'] },
    enhanced_code: { type: ['string', 'null'] },
    reply: { type: ['string', 'null'] },
    source_ip: { type: ['string', 'null'], description: 'null: the system chose' },
  },
} as const;

const webhookPush = {
  $id: 'WebhookPush',
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'webhook_id',
    'url',
    'event_id',
    'event_type',
    'attempt',
    'started_at',
    'duration_ms',
    'success',
    'status_code',
    'error',
  ],
  properties: {
    id: { type: 'string' },
    webhook_id: { type: 'string' },
    url: {
      type: 'string',
      description:
        "The endpoint's URL; its origin alone (`https://hooks.example.net/…`) for a caller whose role may not read webhooks",
    },
    event_id: { type: 'string' },
    event_type: { type: 'string' },
    attempt: { type: 'integer' },
    started_at: isoTime,
    duration_ms: { type: 'integer' },
    success: { type: 'boolean' },
    status_code: { type: ['integer', 'null'] },
    error: { type: ['string', 'null'] },
  },
} as const;

const detailProperties = {
  ...summaryProperties,
  message: { type: 'string', description: 'The HTML as stored' },
  html_bytes: { type: 'integer', description: 'Size of the HTML as sent, in UTF-8 bytes' },
  html_truncated: { type: 'boolean', description: "A test send's HTML was longer than the 64 KiB kept" },
  events: { type: 'array', items: ref('EmailEvent'), description: 'Newest first' },
  delivery_attempts: { type: 'array', items: ref('DeliveryAttempt'), description: 'Newest first' },
  webhook_deliveries: { type: 'array', items: ref('WebhookPush'), description: 'Oldest first' },
  raw_bytes: {
    type: ['integer', 'null'],
    description:
      'Size of the raw bytes kept (GET /api/emails/:id/raw); null before an attempt or once removed',
  },
  content_retention_days: { type: ['integer', 'null'], description: "The account's setting" },
  content_removed_at: nullableIsoTime,
  content_sealed: {
    type: 'boolean',
    description:
      'The message carries a sign-in link for its recipient alone (a reset, sign-up or invitation link): `message` is empty and the raw bytes are not served',
  },
  content_removes_at: nullableIsoTime,
  resent_from: { type: ['string', 'null'], description: 'The message this one is a re-sent copy of' },
  resends: { type: 'array', items: { type: 'string' }, description: 'Re-sent copies, oldest first' },
} as const;

const emailDetail = {
  $id: 'EmailDetail',
  type: 'object',
  additionalProperties: false,
  required: Object.keys(detailProperties),
  properties: detailProperties,
} as const;

/** The send routes' answer: messages/send-request.ts's schema, closed. */
const sendResult = { $id: 'SendResult', ...sendResponseSchema, additionalProperties: false } as const;

/** POST /api/emails/:id/resend's answer: the copy, queued, and its original. */
const resendResult = {
  $id: 'ResendResult',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'status', 'resent_from'],
  properties: {
    id: { type: 'string' },
    status: { type: 'string', enum: ['queued'] },
    resent_from: { type: 'string' },
  },
} as const;

export const emailSchemas = [
  bounceCategory,
  emailStatus,
  email,
  emailEvent,
  tlsDetails,
  deliveryAttempt,
  webhookPush,
  emailDetail,
  sendResult,
  nextStepSchema,
  resendResult,
];
