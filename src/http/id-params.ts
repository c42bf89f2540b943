// Ids in a path (`:id`, `:sid`) are at most MAX_ID_LENGTH characters, refused with `400
// validation_error` before any look-up (SECURITY.md, field lengths). Without it an id of 65 to 100
// characters was looked up and answered 404 with the whole id quoted back, and a longer one met
// Fastify's own parameter limit: a 404 "no route" for a GET, a 400 in Fastify's words for the others.
// Fastify's limit is raised (MAX_PARAM_LENGTH below, set in app.ts) so that every such path reaches its route and this
// check, and a suppressed address of up to 320 characters, percent-encoded, fits in its own.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

export const MAX_ID_LENGTH = 64;
/**
 * Fastify's `maxParamLength`, past which a path matches no route ("no route GET /api/emails/…", a
 * misleading 404 for an id of 961 characters): as long as a request line can be (Node's 16 KiB of
 * headers), so every parameter reaches its route, whose own limits answer. The router has no
 * regular-expression parameters for a long one to cost more in.
 */
export const MAX_PARAM_LENGTH = 16 * 1024;

const ID_PARAMS = ['id', 'sid'] as const;

/** preValidation, on every route; a callback hook (no promise per request). */
export function refuseLongIds(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  const params = request.params as Record<string, unknown> | undefined;
  if (params) {
    for (const name of ID_PARAMS) {
      const value = params[name];
      if (typeof value === 'string' && value.length > MAX_ID_LENGTH) {
        return done(
          new AppError(
            'validation_error',
            `"${name}" must be at most ${MAX_ID_LENGTH} characters (it has ${value.length})`,
          ),
        );
      }
    }
  }
  done();
}
