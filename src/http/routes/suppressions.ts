// GET /api/suppressions (list, filter by address, cursor pagination), POST /api/suppressions (add by
// hand) and DELETE /api/suppressions/:address (send to it again). Scoped to the key's account.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import type { Suppressions } from '../../suppressions/suppressions.js';
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

/** RFC 5321 §4.5.3.1: a local part of 64 octets, "@", a domain of 255. */
const MAX_SUPPRESSION_ADDRESS_LENGTH = 320;

const listQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    // Length limits: a huge filter is refused by the schema before the address parser sees it.
    address: { type: 'string', maxLength: MAX_SUPPRESSION_ADDRESS_LENGTH, description: 'Exact address' },
    starts_with: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_SUPPRESSION_ADDRESS_LENGTH,
      description: 'Addresses that start with this (any case), alphabetically instead of newest first',
    },
    // A page of a prefix search ends at an address: up to 320 octets, in base64url.
    cursor: { type: 'string', maxLength: 1300, description: 'next_cursor of the previous page' },
    limit: { type: 'string', pattern: '^[0-9]{1,3}$', description: '1–100, default 50' },
  },
} as const;

const addBodySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['address'],
  properties: {
    address: { type: 'string', maxLength: MAX_SUPPRESSION_ADDRESS_LENGTH },
    reason: { type: 'string', maxLength: 500 },
  },
} as const;

export interface ListSuppressionsQuery {
  address?: string;
  starts_with?: string;
  cursor?: string;
  limit?: string;
}

export interface AddSuppressionBody {
  address: string;
  reason?: string;
}

export function registerSuppressionRoutes(app: FastifyInstance, suppressions: Suppressions): void {
  app.get<{ Querystring: ListSuppressionsQuery }>(
    '/api/suppressions',
    {
      schema: {
        summary: 'The suppression list, newest first (or by the start of the address, alphabetically)',
        querystring: listQuerySchema,
        response: responses({ 200: json('A page of the list', list(ref('Suppression'), true)) }, [
          ...AUTHENTICATED,
          'validation_error',
        ]),
      },
    },
    async (request) => {
      const { account } = authOf(request);
      const q = request.query;
      const limit = q.limit === undefined ? 50 : Number(q.limit);
      if (limit < 1 || limit > 100)
        throw new AppError('validation_error', '"limit" must be between 1 and 100');
      return suppressions.list(account.id, {
        address: q.address,
        startsWith: q.starts_with,
        cursor: q.cursor,
        limit,
      });
    },
  );

  app.post<{ Body: AddSuppressionBody }>(
    '/api/suppressions',
    {
      schema: {
        summary: 'Suppress an address by hand',
        body: addBodySchema,
        response: responses(
          {
            200: json('The address was suppressed already: its entry', ref('Suppression')),
            201: json('Suppressed', ref('Suppression')),
          },
          [...AUTHENTICATED, ...STATE_CHANGING, 'validation_error'],
        ),
      },
    },
    async (request, reply) => {
      const { account } = authOf(request);
      const { suppression, created } = await suppressions.add(account.id, request.body);
      return reply.code(created ? 201 : 200).send(suppression);
    },
  );

  app.delete<{ Params: { address: string } }>(
    '/api/suppressions/:address',
    {
      schema: {
        summary: 'Remove an address from the suppression list',
        response: responses({ 204: noContent }, [
          ...AUTHENTICATED,
          ...STATE_CHANGING,
          'validation_error',
          'not_found',
        ]),
      },
    },
    async (request, reply) => {
      const { account } = authOf(request);
      await suppressions.remove(account.id, request.params.address);
      return reply.code(204).send();
    },
  );
}
