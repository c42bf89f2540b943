// The account's shapes: GET /api/account (plan, usage, limits, reputation), its daily activity and its
// notices (docs/API.md), shared by $ref.
import { isoTime, nullableIsoTime } from './responses.js';

/** Closed objects whose every property is required. */
function record(properties: Record<string, object>, description?: string) {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties),
    properties,
    ...(description ? { description } : {}),
  };
}

const integer = { type: 'integer' } as const;
const number = { type: 'number' } as const;

const reputation = {
  $id: 'Reputation',
  ...record(
    {
      status: { type: 'string', enum: ['healthy', 'warning', 'paused'] },
      reason: { type: ['string', 'null'], description: 'Why it is not healthy; null when healthy' },
      bounce_rate: number,
      complaint_rate: number,
      messages: { type: 'integer', description: 'Messages that reached a final state in the window' },
      window_days: integer,
      changed_at: { ...nullableIsoTime, description: 'When the status last changed; null: never' },
      thresholds: record({
        bounce_warning: number,
        bounce_pause: number,
        complaint_warning: number,
        complaint_pause: number,
        min_messages: integer,
      }),
      domains: {
        type: 'array',
        items: record({
          domain: { type: 'string' },
          bounce_rate: number,
          complaint_rate: number,
          messages: integer,
        }),
      },
    },
    'Bounce and complaint rates (fractions) over the rolling window, the state they earned and the thresholds',
  ),
};

const account = {
  $id: 'Account',
  ...record({
    id: { type: 'string' },
    email: { type: 'string' },
    plan: { type: 'string', enum: ['free', 'pro', 'scale'] },
    state: { type: 'string', enum: ['sandbox', 'production'] },
    suspended: { type: 'boolean' },
    simulator_domain: {
      type: 'string',
      description:
        "The simulator's domain: mail to delivered@, bounce@, complaint@, delayed@ or suppressed@ it is answered as that outcome, in the sandbox too (docs/API.md)",
    },
    created_at: isoTime,
    usage: record(
      {
        month: { type: 'string', description: 'YYYY-MM' },
        sent: integer,
        limit: integer,
        remaining: integer,
        resets_at: isoTime,
      },
      'Emails counted toward the monthly cap this calendar month (UTC)',
    ),
    test_sends: record(
      {
        day: { type: 'string', description: 'YYYY-MM-DD' },
        sent: integer,
        limit: integer,
        remaining: integer,
        resets_at: isoTime,
      },
      'Test sends (POST /api/email/send/test) counted toward the daily allowance this UTC day',
    ),
    limits: record({
      emails_per_month: integer,
      test_sends_per_day: integer,
      domains: integer,
      webhooks: integer,
      log_retention_hours: { type: ['integer', 'null'], description: 'null: kept permanently' },
    }),
    counts: {
      type: 'object',
      description: 'Domains and webhooks the account has',
      additionalProperties: integer,
    },
    reputation: { $ref: 'Reputation#' },
    content_retention_days: {
      type: ['integer', 'null'],
      description:
        "Days a message's content (HTML and raw bytes) is kept once it is final; null: kept for the log's retention",
    },
  }),
};

const activityDay = {
  $id: 'ActivityDay',
  ...record({
    date: { type: 'string', description: 'YYYY-MM-DD (UTC)' },
    sent: { type: 'integer', description: 'Messages that left the queue for the first time' },
    delivered: integer,
    bounced: { type: 'integer', description: 'Permanent bounces, any category' },
    complained: { type: 'integer', description: 'Spam complaints (unsubscribes are not counted)' },
    final: {
      type: 'integer',
      description:
        "Messages that reached a final state, as the rates count them (the test domain's left out; zeroed when the account is resumed)",
    },
    bad_bounces: {
      type: 'integer',
      description: 'Bounces that say the address is bad, as the bounce rate counts them (same exclusions)',
    },
    spam_complaints: {
      type: 'integer',
      description: 'Spam complaints, as the complaint rate counts them (same exclusions)',
    },
  }),
};

const notice = {
  $id: 'Notice',
  ...record({
    id: { type: 'string' },
    kind: {
      type: 'string',
      description: 'webhook_disabled, quota_80, quota_100, signup_attempt, member_signup_attempt, …',
    },
    message: { type: 'string' },
    data: {
      type: 'object',
      additionalProperties: true,
      description: 'What the notice is about (e.g. the webhook)',
    },
    created_at: isoTime,
  }),
};

export const accountSchemas = [reputation, account, activityDay, notice];
