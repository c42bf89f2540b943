// U+0000 in any string a request carries (its body, query or path) is refused with a 400 that names the
// field. PostgreSQL's text refuses the character (the statement failed, and the request with a 500),
// SQLite's LIKE ends its pattern there (a search for "a\0b" found everything that starts with "a"),
// and no address, name, subject, URL or mail needs one (RFC 5322 text excludes it).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

/** The path of the first string (or object key) in `value` that holds U+0000, or undefined. */
export function nulField(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulField(value[i], join(path, String(i)));
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, v] of Object.entries(value)) {
    const at = join(path, key);
    if (key.includes('\u0000')) return at;
    const found = nulField(v, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/**
 * preValidation, on every route: before the schema (which would name a pattern, not the character) and
 * before any handler reaches the database. A callback hook: no promise per request on the send path.
 */
export function refuseNul(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  const field = nulField(request.params) ?? nulField(request.query) ?? nulField(request.body);
  if (field === undefined) return done();
  const where = field === '' ? 'the body' : `"${field.replaceAll('\u0000', '\\u0000')}"`;
  done(new AppError('validation_error', `${where} must not contain the NUL character (U+0000)`));
}
