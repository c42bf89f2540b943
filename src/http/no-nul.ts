// U+0000 in any string a request carries (its body, query or path) is refused with a 400 that names the
// field. PostgreSQL's text refuses the character (the statement failed, and the request with a 500),
// SQLite's LIKE ends its pattern there (a search for "a\0b" found everything that starts with "a"),
// and no address, name, subject, URL or mail needs one (RFC 5322 text excludes it). So is a lone
// surrogate ("x\uD800y" in JSON): no character at all, it was stored as U+FFFD, the name damaged
// without a word (a browser walk: a key named so listed as "x\uFFFDy").
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { isWellFormed } from '../messages/send-request.js';
import { DASHBOARD_ROUTE } from './web-assets.js';

type Problem = 'nul' | 'surrogate';

/**
 * The path of the first string (or object key) in `value` that holds U+0000 or a lone surrogate, and
 * which, or undefined. Walked with a stack of its own, not by recursion: a small body of deeply nested
 * arrays (14 KB of `[`) overflowed the call stack, a 500 (a review).
 */
export function badTextField(value: unknown, path = ''): { field: string; problem: Problem } | undefined {
  const stack: [unknown, string][] = [[value, path]];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) return { field: at, problem };
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    // Pushed last first, so the first field is looked at first.
    const entries = Array.isArray(v) ? v.map((item, i) => [String(i), item] as const) : Object.entries(v);
    for (const [key] of entries) {
      const problem = textProblem(key);
      if (problem) return { field: join(at, key), problem };
    }
    for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], join(at, entries[i]![0])]);
  }
  return undefined;
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** U+0000, or a lone surrogate (half of a UTF-16 pair). */
function textProblem(text: string): Problem | undefined {
  if (text.includes('\u0000')) return 'nul';
  return isWellFormed(text) ? undefined : 'surrogate';
}

const PROBLEMS: Record<Problem, string> = {
  nul: 'must not contain the NUL character (U+0000)',
  surrogate: 'holds half of a UTF-16 surrogate pair, not a character',
};

/**
 * preValidation, on every route: before the schema (which would name a pattern, not the character) and
 * before any handler reaches the database. A callback hook: no promise per request on the send path.
 */
export function refuseNul(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  // The dashboard's pages (web-assets.ts) store nothing: a link with %00 in its
  // path or query gets the dashboard, which says "No such page", not an API refusal as the page.
  if (request.routeOptions.url === DASHBOARD_ROUTE) return done();
  const bad = badTextField(request.params) ?? badTextField(request.query) ?? badTextField(request.body);
  if (bad === undefined) return done();
  // The field's name as it can be shown: NUL as an escape, a lone surrogate as U+FFFD.
  const shown = (
    bad.field.replaceAll('\u0000', '\\u0000') as string & { toWellFormed(): string }
  ).toWellFormed();
  const where = bad.field === '' ? 'the body' : `"${shown}"`;
  done(new AppError('validation_error', `${where} ${PROBLEMS[bad.problem]}`));
}
