// GET /api/audit: the account's audit log, newest first (docs/design.md §2, "Audit log").
import type { FastifyInstance } from 'fastify';
import { auditJson, type Audit } from '../../audit/audit.js';
import { AppError } from '../../errors.js';
import { isId } from '../../ids.js';
import { authOf } from '../authenticate.js';
import { AUTHENTICATED, json, list, ref, responses } from '../schemas/responses.js';

export function registerAuditRoutes(app: FastifyInstance, audit: Audit): void {
  app.get<{ Querystring: { cursor?: string; limit?: string } }>(
    '/api/audit',
    {
      schema: {
        summary: "The account's audit log: every change, who made it, when and from where (newest first)",
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            cursor: { type: 'string', maxLength: 64 },
            limit: { type: 'string', pattern: '^[0-9]{1,3}$' },
          },
        },
        response: responses({ 200: json('A page of entries', list(ref('AuditEntry'), true)) }, [
          ...AUTHENTICATED,
          'validation_error',
        ]),
      },
    },
    async (request) => {
      const { account } = authOf(request);
      const limit = Number(request.query.limit ?? '50');
      if (limit < 1 || limit > 100) throw new AppError('validation_error', '"limit" must be 1–100');
      // As the log's own cursor is checked (emails.ts): one that is no entry's id is a mistake, not an
      // empty page.
      const cursor = request.query.cursor;
      if (cursor !== undefined && !isId(cursor))
        throw new AppError('validation_error', '"cursor" is not a cursor returned by this API');
      const rows = await audit.list(account.id, limit + 1, cursor);
      const page = rows.slice(0, limit);
      return {
        data: page.map(auditJson),
        next_cursor: rows.length > limit ? page.at(-1)!.id : null,
      };
    },
  );
}
