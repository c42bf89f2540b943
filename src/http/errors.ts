// The one place where anything thrown while handling a request becomes an HTTP response:
// `<status>` + `Content-Type: text/plain` + `code: message` (docs/design.md §3). Never a stack trace.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { databaseUnavailable } from '../db/unavailable.js';
import { AppError, ERROR_CODES, errorBody, type ErrorCode } from '../errors.js';

/** How long a client is asked to wait when the database is away (a restart, a failover, a busy file). */
const DATABASE_RETRY_AFTER_S = 5;

interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
  return reply.code(err.status).type('text/plain; charset=utf-8').send(errorBody(err.code, err.message));
}

/** A request no route serves: the answer of the not-found handler, and of a body sent to no route. */
export function noRoute(request: FastifyRequest, path = request.url.split('?')[0]!): AppError {
  return new AppError('not_found', `no route ${request.method} ${quotedPath(path)}`);
}

/** A path quoted in an error: as asked, up to a length that still says which it was. */
export function quotedPath(path: string): string {
  return path.length > MAX_QUOTED_PATH ? `${path.slice(0, MAX_QUOTED_PATH)}…` : path;
}

const MAX_QUOTED_PATH = 200;

export function handleError(err: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const appError = toAppError(err, request.routeOptions.bodyLimit);
  if (appError.status >= 500) request.log.error({ err }, 'request failed');
  return sendError(reply, appError);
}

/** `bodyLimit`: the route's largest body, in bytes, for the 413's message. */
function toAppError(err: unknown, bodyLimit: number | undefined): AppError {
  if (err instanceof AppError) return err;
  const e = err as Partial<FastifyError> & { validation?: SchemaError[]; validationContext?: string };
  if (e.validation)
    return new AppError('validation_error', describeSchemaError(e.validation, e.validationContext));
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new AppError('unsupported_media_type', 'send the body as Content-Type: application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', `the request body must be at most ${sizeText(bodyLimit)}`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('invalid_json', 'the body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('invalid_json', `the body is not valid JSON (${e.message ?? 'parse error'})`);
  }
  if (
    err instanceof SyntaxError ||
    (e.statusCode === 400 && /JSON|prototype|constructor/i.test(e.message ?? ''))
  ) {
    return new AppError('invalid_json', `the body is not valid JSON (${(err as Error).message})`);
  }
  // Fastify marks what went wrong with the request itself 4xx. That comes first: a client that closed
  // its connection in the middle of the body is the request stream's ECONNRESET, which
  // databaseUnavailable would otherwise take for a database's socket.
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    if (e.code === 'ECONNRESET') {
      return new AppError('bad_request', 'the connection closed before the request body arrived whole');
    }
    const code: ErrorCode =
      e.statusCode === 413 ? 'payload_too_large' : e.statusCode === 404 ? 'not_found' : 'bad_request';
    return new AppError(code, e.message ?? ERROR_CODES[code].meaning);
  }
  // The database away for a moment (db/unavailable.ts): the client's request was fine, and is worth
  // sending again shortly, not a bug to report.
  if (databaseUnavailable(err)) {
    return new AppError('service_unavailable', 'the database is unavailable for a moment; retry shortly', {
      'Retry-After': String(DATABASE_RETRY_AFTER_S),
    });
  }
  return new AppError('internal_error', 'something went wrong inside txmail; the error is logged');
}

/** 10485760 → "10 MiB", 16384 → "16 KiB"; the API's default limit when the route has none. */
export function sizeText(bytes = 10 * 1024 * 1024): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * A JSON-schema type (or list of types, as Ajv gives `["integer", "null"]` or `"integer,null"`) in words:
 * `an integer or null`.
 */
function typeWords(type: unknown): string {
  const types = (Array.isArray(type) ? type.map(String) : String(type).split(',')).filter((t) => t !== '');
  const words = types.map((t) => (t === 'null' ? 'null' : `${/^[aeiou]/.test(t) ? 'an' : 'a'} ${t}`));
  return words.length <= 1
    ? (words[0] ?? 'of another type')
    : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** A JSON-schema error as a sentence about the field, e.g. `"to" must be a string`. */
export function describeSchemaError(errors: SchemaError[], context = 'body'): string {
  const e = errors[0];
  if (!e) return `the ${context} is invalid`;
  const field = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const where = context === 'body' ? 'the body' : `the ${context}`;
  switch (e.keyword) {
    case 'required':
      return `"${String(e.params.missingProperty)}" is required`;
    case 'additionalProperties':
      return `unknown field "${String(e.params.additionalProperty)}" in ${where}`;
    case 'type':
      if (field === '') return `${where} must be a JSON object`;
      if (field === 'to') return '"to" must be a string with one recipient (one email per call)';
      return `"${field}" must be ${typeWords(e.params.type)}`;
    case 'maxLength':
      // Worded as the parsers word their own length limits (e.g. address.ts).
      return `"${field}" must be at most ${String(e.params.limit)} characters`;
    case 'maxItems':
      return `"${field}" must have at most ${String(e.params.limit)} items`;
    // Ajv's own words ("must NOT have fewer than 1 characters") read as a validator's, not a person's.
    case 'minLength':
      return Number(e.params.limit) === 1
        ? `"${field}" must not be empty`
        : `"${field}" must be at least ${String(e.params.limit)} characters`;
    case 'minItems':
      return Number(e.params.limit) === 1
        ? `"${field}" must have at least one item`
        : `"${field}" must have at least ${String(e.params.limit)} items`;
    case 'enum': {
      // Named, so that a client need not look them up: `"events.0" must be one of email.sent, …`.
      const allowed = (e.params.allowedValues as unknown[] | undefined) ?? [];
      const shown = allowed.slice(0, 20).map(String).join(', ');
      return `"${field}" must be one of ${shown}${allowed.length > 20 ? ', …' : ''}`;
    }
    case 'const':
      return `"${field}" must be ${JSON.stringify(e.params.allowedValue)}`;
    case 'minProperties':
      return field === ''
        ? `${where} must name at least one field to change`
        : `"${field}" must have at least ${String(e.params.limit)} fields`;
    case 'uniqueItems': {
      const [first, second] = [Number(e.params.i), Number(e.params.j)].sort((a, b) => a - b);
      return `"${field}" lists the same value twice (items ${first} and ${second})`;
    }
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum': {
      const words = {
        minimum: 'at least',
        exclusiveMinimum: 'more than',
        maximum: 'at most',
        exclusiveMaximum: 'less than',
      };
      return `"${field}" must be ${words[e.keyword]} ${String(e.params.limit)}`;
    }
    default:
      return field === ''
        ? `${where} ${e.message ?? 'is invalid'}`
        : `"${field}" ${e.message ?? 'is invalid'}`;
  }
}
