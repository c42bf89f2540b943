// The headers of the API that the routes' schemas do not carry, added to /openapi.json so that client
// generators know them: the Idempotency-Key a client sends (idempotency-key.ts), the rate-limit
// headers every authenticated answer has (authenticate.ts), Retry-After on refusals worth retrying,
// and the CSV export's x-next-cursor (routes/emails.ts). docs/API.md describes each.
import { IDEMPOTENCY_KEY_PATTERN } from './idempotency-key.js';

interface Operation {
  security?: unknown[];
  parameters?: { name: string; in: string }[];
  responses?: Record<string, { headers?: Record<string, object> }>;
}
type Document = { paths?: Record<string, Record<string, Operation>> };

/** The operations that take an Idempotency-Key: those that queue mail. */
const IDEMPOTENT = new Set([
  'post /api/email/send',
  'post /api/email/send/test',
  'post /api/emails/{id}/resend',
]);

const integer = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': integer(
    'Requests allowed in a burst (the bucket of the key, or of the account across its keys, whichever is tighter); on every answer after authentication, absent when the operator turned rate limits off',
  ),
  'RateLimit-Remaining': integer('Requests left in the burst'),
  'RateLimit-Reset': integer('Seconds until the bucket is full again'),
};

const RETRY_AFTER = {
  'Retry-After': integer(
    'Seconds to wait before trying again: on `rate_limit_exceeded`, and when the database or the server is busy for a moment',
  ),
};

const NEXT_CURSOR = {
  'x-next-cursor': {
    description:
      'CSV export (Accept: text/csv) only: present when the export stopped at its row limit; pass as `cursor` for the rest',
    schema: { type: 'string' },
  },
};

export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: a request with a key this account used in the last 24 hours gets the first answer, and nothing is queued again (`idempotency_key_reused` when the body differs)',
  schema: { type: 'string', minLength: 1, maxLength: 256, pattern: IDEMPOTENCY_KEY_PATTERN.source },
};

/** Adds the headers above to the generated document (a @fastify/swagger transformObject). */
export function withApiHeaders<T>(document: T): T {
  const doc = document as Document;
  for (const [path, operations] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(operations)) {
      if (IDEMPOTENT.has(`${method} ${path}`)) {
        op.parameters = [...(op.parameters ?? []), IDEMPOTENCY_KEY_PARAMETER];
      }
      const authenticated = (op.security?.length ?? 0) > 0;
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const headers: Record<string, object> = { ...response.headers };
        // Every answer once the request is authenticated: a 401 too (a wrong current password).
        if (authenticated) Object.assign(headers, RATE_LIMIT_HEADERS);
        if (status === '429' || status === '503') Object.assign(headers, RETRY_AFTER);
        if (method === 'get' && path === '/api/emails' && status === '200')
          Object.assign(headers, NEXT_CURSOR);
        if (Object.keys(headers).length > 0) response.headers = headers;
      }
    }
  }
  return document;
}
