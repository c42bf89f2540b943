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
import { AUTHENTICATED, json, ref, responses, STATE_CHANGING } from '../schemas/responses.js';

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
        response: responses({ 200: json('The account', ref('Account')) }, [
          ...AUTHENTICATED,
          ...STATE_CHANGING,
          'validation_error',
          'not_found',
        ]),
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
        response: responses({ 200: json('The account', ref('Account')) }, [...AUTHENTICATED, 'not_found']),
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
  additionalProperties: false,
  required: ['days'],
  properties: {
    days: {
      type: 'array',
      description: 'One entry per UTC day, oldest first; the last is today',
      items: ref('ActivityDay'),
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
        response: responses({ 200: json('The days', activitySchema) }, [
          ...AUTHENTICATED,
          'validation_error',
        ]),
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
