// A string field far over its length limit is refused before Ajv looks at it. Ajv counts a string's
// length in code points, walking the whole string on the event loop (30 ms for a 10 MiB field it then
// refuses). A string of n UTF-16 code units holds between n/2 and n code points, so one longer than
// twice its limit is over it for certain, and `length` says so for free; Ajv still judges the rest
// exactly, in code points.
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import { AppError } from '../errors.js';
import { hookList } from './route-hooks.js';

interface BodySchema {
  properties?: Record<string, { maxLength?: number }>;
}

/** The body's string fields that have a length limit, with it. */
function lengthLimits(schema: unknown): [name: string, limit: number][] {
  const properties = (schema as BodySchema | undefined)?.properties ?? {};
  return Object.entries(properties).flatMap(([name, p]) =>
    p.maxLength === undefined ? [] : [[name, p.maxLength] as [string, number]],
  );
}

/**
 * Adds the pre-check to each route whose body has limited fields, as the routes are made: the send route
 * pays one callback per request, and routes without such fields pay nothing.
 */
export function registerLengthPrecheck(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const limits = lengthLimits(route.schema?.body);
    if (limits.length === 0) return;
    const precheck = (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
      const body = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return done();
      for (const [name, limit] of limits) {
        const value = (body as Record<string, unknown>)[name];
        if (typeof value === 'string' && value.length > 2 * limit) {
          // The words Ajv's own refusal gets (errors.ts), so the answer does not depend on which one saw it.
          return done(new AppError('validation_error', `"${name}" must be at most ${limit} characters`));
        }
      }
      done();
    };
    route.preValidation = [precheck as preValidationHookHandler, ...hookList(route.preValidation)];
  });
}
