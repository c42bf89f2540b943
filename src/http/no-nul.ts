// U+0000 in any string a request carries (its body, query or path) is refused with a 400 that names the
// field. PostgreSQL's text refuses the character (the statement failed, and the request with a 500),
// SQLite's LIKE ends its pattern there (a search for "a\0b" found everything that starts with "a"),
// and no address, name, subject, URL or mail needs one (RFC 5322 text excludes it).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

/**
 * The path of the first string (or object key) in `value` that holds U+0000, or undefined. Walked with
 * a stack of its own, not by recursion: a small body of deeply nested arrays (14 KB of `[`) overflowed
 * the call stack, a 500 (a review).
 */
export function nulField(value: unknown, path = ''): string | undefined {
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return at;
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    // Pushed last first, so the first field is looked at first.
    const entries = Array.isArray(v) ? v.map((item, i) => [String(i), item] as const) : Object.entries(v);
    for (const [key] of entries) if (key.includes('\u0000')) return join(at, key);
    for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], join(at, entries[i]![0])]);
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
