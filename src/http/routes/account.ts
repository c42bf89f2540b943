// GET /api/account: plan, state, this month's usage, today's test sends, the plan's limits and what
// counts against them. GET /api/account/activity: the account's mail per day (the dashboard's chart).
import type { FastifyInstance } from 'fastify';
import type { AccountOverviews } from '../../accounts/account-overview.js';
import { utcDay, type Clock } from '../../clock.js';
import type { ReputationRepo } from '../../db/reputation-repo.js';
import { dayBefore } from '../../reputation/counts.js';
import { AppError } from '../../errors.js';
import { MAX_CONTENT_RETENTION_DAYS } from '../../accounts/content-retention.js';
import { authOf } from '../authenticate.js';

const accountSchema = {
  type: 'object',
  required: [
    'id',
    'email',
    'plan',
    'state',
    'suspended',
    'usage',
    'test_sends',
    'limits',
    'counts',
    'reputation',
  ],
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    plan: { type: 'string', enum: ['free', 'pro', 'scale'] },
    state: { type: 'string', enum: ['sandbox', 'production'] },
    suspended: { type: 'boolean' },
    created_at: { type: 'string', format: 'date-time' },
    usage: {
      type: 'object',
      description: 'Emails counted toward the monthly cap this calendar month (UTC)',
      properties: {
        month: { type: 'string', description: 'YYYY-MM' },
        sent: { type: 'integer' },
        limit: { type: 'integer' },
        remaining: { type: 'integer' },
        resets_at: { type: 'string', format: 'date-time' },
      },
    },
    test_sends: {
      type: 'object',
      description: 'Test sends (POST /api/email/send/test) counted toward the daily allowance this UTC day',
      properties: {
        day: { type: 'string', description: 'YYYY-MM-DD' },
        sent: { type: 'integer' },
        limit: { type: 'integer' },
        remaining: { type: 'integer' },
        resets_at: { type: 'string', format: 'date-time' },
      },
    },
    limits: {
      type: 'object',
      properties: {
        emails_per_month: { type: 'integer' },
        test_sends_per_day: { type: 'integer' },
        domains: { type: 'integer' },
        webhooks: { type: 'integer' },
        log_retention_hours: { type: ['integer', 'null'], description: 'null: kept permanently' },
      },
    },
    counts: {
      type: 'object',
      description: 'Domains and webhooks the account has',
      additionalProperties: { type: 'integer' },
    },
    content_retention_days: {
      type: ['integer', 'null'],
      description:
        "Days a message's content (HTML and raw bytes) is kept once it is final; null: kept for the log's retention",
    },
    reputation: {
      type: 'object',
      description:
        'Bounce and complaint rates (fractions) over the rolling window, the state they earned and the thresholds (docs/API.md)',
      required: [
        'status',
        'reason',
        'bounce_rate',
        'complaint_rate',
        'messages',
        'window_days',
        'changed_at',
        'thresholds',
        'domains',
      ],
      properties: {
        status: { type: 'string', enum: ['healthy', 'warning', 'paused'] },
        reason: { type: ['string', 'null'] },
        bounce_rate: { type: 'number' },
        complaint_rate: { type: 'number' },
        messages: { type: 'integer' },
        window_days: { type: 'integer' },
        changed_at: { type: ['string', 'null'], format: 'date-time' },
        thresholds: {
          type: 'object',
          properties: {
            bounce_warning: { type: 'number' },
            bounce_pause: { type: 'number' },
            complaint_warning: { type: 'number' },
            complaint_pause: { type: 'number' },
            min_messages: { type: 'integer' },
          },
        },
        domains: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              domain: { type: 'string' },
              bounce_rate: { type: 'number' },
              complaint_rate: { type: 'number' },
              messages: { type: 'integer' },
            },
          },
        },
      },
    },
  },
} as const;

const patchAccountSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['content_retention_days'],
  properties: {
    content_retention_days: {
      type: ['integer', 'null'],
      minimum: 1,
      maximum: MAX_CONTENT_RETENTION_DAYS,
      description: `Days a final message's content is kept, 1–${MAX_CONTENT_RETENTION_DAYS}; null keeps it`,
    },
  },
} as const;

export function registerAccountRoutes(app: FastifyInstance, overviews: AccountOverviews): void {
  app.patch<{ Body: { content_retention_days: number | null } }>(
    '/api/account',
    {
      schema: {
        summary: "The account's settings: how long a final message's content is kept",
        body: patchAccountSchema,
      },
    },
    async (request) => {
      const id = authOf(request).account.id;
      if (!(await overviews.setContentRetention(id, request.body.content_retention_days)))
        throw new AppError('not_found', 'the account no longer exists');
      const overview = await overviews.get(id);
      if (!overview) throw new AppError('not_found', 'the account no longer exists');
      return overview;
    },
  );

  app.get(
    '/api/account',
    {
      schema: {
        summary: 'The account: plan, state, usage this month and limits',
        response: { 200: accountSchema },
      },
    },
    async (request) => {
      const overview = await overviews.get(authOf(request).account.id);
      if (!overview) throw new AppError('not_found', 'the account no longer exists');
      return overview;
    },
  );
}

/** Days GET /api/account/activity answers at most, and by default. */
export const MAX_ACTIVITY_DAYS = 90;
export const DEFAULT_ACTIVITY_DAYS = 30;

const activityQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    days: {
      type: 'string',
      pattern: '^[0-9]{1,3}$',
      description: `1–${MAX_ACTIVITY_DAYS}, default ${DEFAULT_ACTIVITY_DAYS}`,
    },
  },
} as const;

const activitySchema = {
  type: 'object',
  required: ['days'],
  properties: {
    days: {
      type: 'array',
      description: 'One entry per UTC day, oldest first; the last is today',
      items: {
        type: 'object',
        required: [
          'date',
          'sent',
          'delivered',
          'bounced',
          'complained',
          'final',
          'bad_bounces',
          'spam_complaints',
        ],
        properties: {
          date: { type: 'string', description: 'YYYY-MM-DD (UTC)' },
          sent: { type: 'integer', description: 'Messages that left the queue for the first time' },
          delivered: { type: 'integer' },
          bounced: { type: 'integer', description: 'Permanent bounces, any category' },
          complained: { type: 'integer', description: 'Spam complaints (unsubscribes are not counted)' },
          final: {
            type: 'integer',
            description:
              "Messages that reached a final state, as the rates count them (the test domain's left out; zeroed when the account is resumed)",
          },
          bad_bounces: {
            type: 'integer',
            description:
              'Bounces that say the address is bad, as the bounce rate counts them (same exclusions)',
          },
          spam_complaints: {
            type: 'integer',
            description: 'Spam complaints, as the complaint rate counts them (same exclusions)',
          },
        },
      },
    },
  },
} as const;

/**
 * GET /api/account/activity?days=N: the account's mail per UTC day over the last N days, today
 * included, every day present (docs/API.md). Read from the reputation counts (db/reputation-repo.ts):
 * a sum over a few rows per day, whatever the volume.
 */
export function registerAccountActivityRoute(
  app: FastifyInstance,
  deps: { reputation: ReputationRepo; clock: Clock },
): void {
  app.get<{ Querystring: { days?: string } }>(
    '/api/account/activity',
    {
      schema: {
        summary: "The account's mail per day: sent, delivered, bounced, complained",
        querystring: activityQuerySchema,
        response: { 200: activitySchema },
      },
    },
    async (request) => {
      const days = request.query.days === undefined ? DEFAULT_ACTIVITY_DAYS : Number(request.query.days);
      if (days < 1 || days > MAX_ACTIVITY_DAYS) {
        throw new AppError('validation_error', `"days" must be between 1 and ${MAX_ACTIVITY_DAYS}`);
      }
      const now = deps.clock.now();
      return {
        days: await deps.reputation.activity(
          authOf(request).account.id,
          dayBefore(now, days - 1),
          utcDay(now),
        ),
      };
    },
  );
}
