// /api/webhooks: endpoints that receive signed events (docs/design.md §8), their secrets, test pushes,
// replays and the log of every attempt.
import type { FastifyInstance } from 'fastify';
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookAttemptRow,
  type WebhookEventType,
  type WebhookRow,
} from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { decodeTypes, type WebhookEndpoints, type WebhookInput } from '../../webhooks/webhook-endpoints.js';
import { MAX_URL_LENGTH } from '../../webhooks/webhook-url.js';
import { authOf } from '../authenticate.js';
import {
  AUTHENTICATED,
  json,
  list,
  noContent,
  ref,
  responses,
  STATE_CHANGING,
} from '../schemas/responses.js';
import { isId } from '../../ids.js';

/** An endpoint of another account, or no such id. */
const ONE = [...AUTHENTICATED, 'not_found'] as const;
const CHANGE_ONE = [...ONE, ...STATE_CHANGING] as const;

/** Ids and cursors are far shorter (a UUID, its base64url); a longer one is refused unread. */
const MAX_ID_FIELD_LENGTH = 64;

// Every string has a length limit and the list a size limit, so the schema refuses a huge field in
// one pass before anything parses it.
const fields = {
  url: {
    type: 'string',
    maxLength: MAX_URL_LENGTH,
    description: 'https:// URL that receives the events (POST, JSON).',
  },
  events: {
    type: 'array',
    items: { type: 'string', enum: WEBHOOK_EVENT_TYPES },
    minItems: 1,
    maxItems: WEBHOOK_EVENT_TYPES.length,
    uniqueItems: true,
    description: 'Event types sent; default email.delivered, email.bounced, email.complained.',
  },
  enabled: { type: 'boolean', description: 'false: nothing is sent (events meanwhile are not kept for it).' },
  description: { type: 'string', maxLength: 256 },
} as const;

export const createWebhookSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: fields,
} as const;

export const updateWebhookSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: fields,
} as const;

const replaySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['event_id'],
  properties: {
    event_id: {
      type: 'string',
      maxLength: MAX_ID_FIELD_LENGTH,
      description: 'Id of an event of this account.',
    },
  },
} as const;

const pageQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    cursor: {
      type: 'string',
      maxLength: MAX_ID_FIELD_LENGTH,
      description: 'next_cursor of the previous page',
    },
    limit: { type: 'string', pattern: '^[0-9]{1,3}$', description: '1–100, default 50' },
  },
} as const;

export interface WebhookBody {
  url: string;
  events?: WebhookEventType[];
  enabled?: boolean;
  description?: string;
}

type Id = { Params: { id: string } };

export function registerWebhookRoutes(app: FastifyInstance, webhooks: WebhookEndpoints): void {
  const find = (id: string) => {
    if (!isId(id)) throw new AppError('not_found', `no webhook with id "${id}" in this account`);
    return id;
  };

  app.get(
    '/api/webhooks',
    {
      schema: {
        summary: "The account's webhook endpoints",
        response: responses({ 200: json('The endpoints', list(ref('Webhook'))) }, AUTHENTICATED),
      },
    },
    async (request) => {
      const rows = await webhooks.list(authOf(request).account);
      return { data: rows.map((w) => webhookJson(w)) };
    },
  );

  app.post<{ Body: WebhookBody }>(
    '/api/webhooks',
    {
      schema: {
        summary: 'Add a webhook endpoint (Pro: 3, Scale: 10)',
        body: createWebhookSchema,
        response: responses({ 201: json('Added, with its signing secret', ref('NewWebhook')) }, [
          ...AUTHENTICATED,
          ...STATE_CHANGING,
          'validation_error',
          'plan_limit',
        ]),
      },
    },
    async (request, reply) => {
      const created = await webhooks.create(
        authOf(request).account,
        input(request.body) as WebhookInput & { url: string },
      );
      // Secrets and mail content are never kept by a cache between the client and txmail.
      return reply
        .code(201)
        .header('Cache-Control', 'no-store')
        .send({ ...webhookJson(created.webhook), secret: created.secret });
    },
  );

  app.get<Id>(
    '/api/webhooks/:id',
    {
      schema: {
        summary: 'One webhook endpoint',
        response: responses({ 200: json('The endpoint', ref('WebhookDetail')) }, ONE),
      },
    },
    async (request) => {
      const { account } = authOf(request);
      const w = await webhooks.get(account, find(request.params.id));
      return { ...webhookJson(w), previous_secret_expires_at: iso(webhooks.previousUntil(w)) };
    },
  );

  app.patch<Id & { Body: Partial<WebhookBody> }>(
    '/api/webhooks/:id',
    {
      schema: {
        summary: 'Change a webhook endpoint',
        body: updateWebhookSchema,
        response: responses({ 200: json('The endpoint, changed', ref('Webhook')) }, [
          ...CHANGE_ONE,
          'validation_error',
        ]),
      },
    },
    async (request) =>
      webhookJson(
        await webhooks.update(authOf(request).account, find(request.params.id), input(request.body)),
      ),
  );

  app.delete<Id>(
    '/api/webhooks/:id',
    { schema: { summary: 'Delete a webhook endpoint', response: responses({ 204: noContent }, CHANGE_ONE) } },
    async (request, reply) => {
      await webhooks.delete(authOf(request).account, find(request.params.id));
      return reply.code(204).send();
    },
  );

  app.get<Id>(
    '/api/webhooks/:id/secret',
    {
      schema: {
        summary: 'Reveal the signing secret',
        response: responses({ 200: json('The secret', ref('WebhookSecret')) }, ONE),
      },
    },
    async (request, reply) => {
      const s = await webhooks.secret(authOf(request).account, find(request.params.id));
      reply.header('Cache-Control', 'no-store');
      return { secret: s.secret, previous_secret_expires_at: iso(s.previousUntil) };
    },
  );

  app.post<Id>(
    '/api/webhooks/:id/rotate-secret',
    {
      schema: {
        summary: 'New signing secret; the old one keeps signing for 24 hours',
        response: responses({ 200: json('The new secret', ref('WebhookSecret')) }, CHANGE_ONE),
      },
    },
    async (request, reply) => {
      const s = await webhooks.rotateSecret(authOf(request).account, find(request.params.id));
      reply.header('Cache-Control', 'no-store');
      return { secret: s.secret, previous_secret_expires_at: iso(s.previousUntil) };
    },
  );

  app.post<Id>(
    '/api/webhooks/:id/test',
    {
      schema: {
        summary: 'Send a signed webhook.test event now; the attempt is the answer',
        response: responses({ 200: json('The attempt', ref('WebhookAttempt')) }, CHANGE_ONE),
      },
    },
    async (request) => attemptJson(await webhooks.test(authOf(request).account, find(request.params.id))),
  );

  app.post<Id & { Body: { event_id: string } }>(
    '/api/webhooks/:id/replay',
    {
      schema: {
        summary: 'Send an event of this account to this endpoint again',
        body: replaySchema,
        response: responses({ 202: json('Queued', ref('WebhookReplay')) }, [
          ...CHANGE_ONE,
          'validation_error',
          'replay_limit_exceeded',
        ]),
      },
    },
    async (request, reply) => {
      const id = find(request.params.id);
      const eventId = request.body.event_id;
      if (!isId(eventId)) throw new AppError('not_found', `no event with id "${eventId}" in this account`);
      await webhooks.replay(authOf(request).account, id, eventId);
      return reply.code(202).send({ webhook_id: id, event_id: eventId, status: 'queued' });
    },
  );

  app.post<Id>(
    '/api/events/:id/replay',
    {
      schema: {
        summary: 'Send an event again to every enabled endpoint subscribed to its type',
        response: responses({ 202: json('Queued', ref('EventReplay')) }, [
          ...CHANGE_ONE,
          'replay_limit_exceeded',
        ]),
      },
    },
    async (request, reply) => {
      const eventId = request.params.id;
      if (!isId(eventId)) throw new AppError('not_found', `no event with id "${eventId}" in this account`);
      const ids = await webhooks.replayEvent(authOf(request).account, eventId);
      return reply.code(202).send({ event_id: eventId, webhook_ids: ids, status: 'queued' });
    },
  );

  app.get<Id & { Querystring: { cursor?: string; limit?: string } }>(
    '/api/webhooks/:id/deliveries',
    {
      schema: {
        summary: 'Every attempt to push to this endpoint, newest first',
        querystring: pageQuerySchema,
        response: responses({ 200: json('A page of attempts', list(ref('WebhookAttempt'), true)) }, [
          ...ONE,
          'validation_error',
        ]),
      },
    },
    async (request) => {
      const { account } = authOf(request);
      const id = find(request.params.id);
      await webhooks.get(account, id);
      const limit = request.query.limit === undefined ? 50 : Number(request.query.limit);
      if (limit < 1 || limit > 100)
        throw new AppError('validation_error', '"limit" must be between 1 and 100');
      const cursor = request.query.cursor;
      const beforeId = cursor === undefined ? undefined : Buffer.from(cursor, 'base64url').toString('utf8');
      if (beforeId !== undefined && !isId(beforeId)) {
        throw new AppError('validation_error', '"cursor" is not a cursor returned by this API');
      }
      const rows = await webhooks.deliveries(account, id, beforeId, limit + 1);
      const page = rows.slice(0, limit);
      return {
        data: page.map(attemptJson),
        next_cursor:
          rows.length > limit ? Buffer.from(page[page.length - 1]!.id).toString('base64url') : null,
      };
    },
  );
}

function input(body: Partial<WebhookBody>): WebhookInput {
  const out: WebhookInput = {};
  if (body.url !== undefined) out.url = body.url.trim();
  if (body.events !== undefined) out.events = body.events;
  if (body.enabled !== undefined) out.enabled = body.enabled;
  if (body.description !== undefined) out.description = body.description;
  return out;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

export function webhookJson(w: WebhookRow) {
  return {
    id: w.id,
    url: w.url,
    description: w.description,
    events: decodeTypes(w.event_types),
    enabled: w.enabled === 1,
    disabled_reason: w.disabled_reason,
    created_at: iso(w.created_at),
    updated_at: iso(w.updated_at),
  };
}

function attemptJson(a: WebhookAttemptRow) {
  return {
    id: a.id,
    event_id: a.event_id,
    event_type: a.event_type,
    attempt: a.attempt,
    success: a.success === 1,
    status_code: a.status_code,
    duration_ms: a.duration_ms,
    response: a.response,
    error: a.error,
    created_at: iso(a.started_at),
  };
}
