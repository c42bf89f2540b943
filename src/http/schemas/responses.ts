// Pieces every route's `schema.response` is made of (docs/design.md §3): the 2xx bodies refer to the
// shared schemas by $ref, the errors are text/plain `code: message` lines whose possible codes are
// listed per route, grouped by status from the one registry (src/errors.ts).
// These schemas describe; they never shape what is sent: app.ts serialises with JSON.stringify, and
// the contract test (test/openapi-contract.test.ts) checks every answer the tests get against them.
import { ERROR_CODES, type ErrorCode } from '../../errors.js';

/** A reference to a shared schema (registered by schemas/index.ts, a component of the document). */
export function ref(id: string): { $ref: string } {
  return { $ref: `${id}#` };
}

/** A value or null. */
export function nullable(schema: object): object {
  return { anyOf: [schema, { type: 'null' }] };
}

export const isoTime = { type: 'string', format: 'date-time' } as const;
export const nullableIsoTime = { type: ['string', 'null'], format: 'date-time' } as const;

/** A JSON body: `description` says what it is. */
export function json(description: string, schema: object): object {
  return { description, content: { 'application/json': { schema } } };
}

/** 204: no body. */
export const noContent = { description: 'Done; no body', type: 'null' } as const;

/** The list envelope `{"data": [...]}`, with `next_cursor` when the list pages. */
export function list(item: object, paged = false): object {
  return {
    type: 'object',
    additionalProperties: false,
    required: paged ? ['data', 'next_cursor'] : ['data'],
    properties: {
      data: { type: 'array', items: item },
      ...(paged
        ? { next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page' } }
        : {}),
    },
  };
}

/**
 * Every route can fail on a bug (500), Fastify refuses a malformed request (bad header, URL or
 * length) before any handler runs, a NUL character in any string of the path, query or body is a
 * validation_error (no-nul.ts), a closing server refuses every request (http/closing.ts), and a
 * database away for a moment answers 503 with Retry-After (http/errors.ts).
 */
const ANY_ROUTE: ErrorCode[] = [
  'bad_request',
  'validation_error',
  'internal_error',
  'service_unavailable',
  'shutting_down',
];

/** Routes behind the authentication hook (authenticate.ts): key or session, then the rate limits. */
export const AUTHENTICATED: ErrorCode[] = [
  'missing_api_key',
  'invalid_api_key',
  'session_expired',
  'browser_request_refused',
  'rate_limit_exceeded',
];

/**
 * Every state-changing request: the session's CSRF token, and a body is read whatever the route (and
 * counted against the memory bodies may hold: body-memory.ts).
 */
export const STATE_CHANGING: ErrorCode[] = [
  'csrf_token_invalid',
  'invalid_json',
  'unsupported_media_type',
  'payload_too_large',
  'server_busy',
  // A large body whose parsing thread stopped (http/json-body.ts).
  'service_unavailable',
];

/** Routes only the dashboard may call (key management, the guided test). */
export const SESSION_ONLY: ErrorCode[] = ['session_required'];

/**
 * The error responses of a route: one text/plain response per status, whose schema admits exactly the
 * codes given (and those every route has).
 */
export function errorResponses(codes: readonly ErrorCode[]): Record<string, object> {
  const byStatus = new Map<number, Set<ErrorCode>>();
  for (const code of [...ANY_ROUTE, ...codes]) {
    const status = ERROR_CODES[code].status;
    if (!byStatus.has(status)) byStatus.set(status, new Set());
    byStatus.get(status)!.add(code);
  }
  const out: Record<string, object> = {};
  for (const [status, set] of [...byStatus].sort(([a], [b]) => a - b)) {
    const list = [...set];
    out[String(status)] = {
      description: list.map((c) => `\`${c}\`: ${ERROR_CODES[c].meaning}`).join('\n\n'),
      content: {
        'text/plain': {
          schema: {
            type: 'string',
            pattern: `^(${list.join('|')}): `,
            description: 'One line: `code: message for people`',
          },
        },
      },
    };
  }
  return out;
}

/** The successes and codes each `responses(...)` answer was made of, for withErrorCodes. */
const MADE_OF = new WeakMap<object, { ok: Record<number, object>; codes: readonly ErrorCode[] }>();

/** A route's responses: its successes and the errors it can answer. */
export function responses(ok: Record<number, object>, codes: readonly ErrorCode[]): Record<string, object> {
  const out: Record<string, object> = {};
  for (const [status, response] of Object.entries(ok)) out[status] = response;
  const all = { ...out, ...errorResponses(codes) };
  MADE_OF.set(all, { ok, codes });
  return all;
}

/**
 * A route's responses with more error codes: those a hook adds to every route of a plugin (the role
 * check, http/access-hooks.ts). Responses not made by `responses(...)` are left as they are.
 */
export function withErrorCodes(
  response: Record<string, object>,
  extra: readonly ErrorCode[],
): Record<string, object> {
  const parts = MADE_OF.get(response);
  if (!parts || extra.length === 0) return response;
  return responses(parts.ok, [...new Set([...parts.codes, ...extra])]);
}
