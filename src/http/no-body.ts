// A route that takes no body (a resend, a replay, a check, a rotation) refuses one with fields, as every
// route with a body refuses a field it does not know: `{"to": "other@x"}` sent to a resend once
// answered 200 and the copy went to the original address. Nothing, or `{}`, is no body (docs/API.md:
// many HTTP clients send `Content-Type: application/json` and `{}` on every request).
import type { FastifyInstance, FastifyReply, FastifyRequest, preValidationHookHandler } from 'fastify';
import { AppError } from '../errors.js';
import { hookList } from './route-hooks.js';

/** Methods whose requests may carry a body (RFC 9110 §9.3): the others' bodies are not read. */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function refuseBody(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
  const body: unknown = request.body;
  if (body === undefined || body === null) return done();
  if (typeof body === 'object' && !Array.isArray(body)) {
    const fields = Object.keys(body);
    if (fields.length === 0) return done();
    const named = JSON.stringify(fields[0]!.slice(0, 64));
    return done(
      new AppError(
        'validation_error',
        `this route takes no body: send none, or {} (it had the field ${named})`,
      ),
    );
  }
  done(new AppError('validation_error', 'this route takes no body: send none, or {}'));
}

/**
 * Adds the check to each route without a body schema, as the routes are made: routes that take a
 * body (the send route among them) pay nothing.
 */
export function registerNoBodyCheck(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.schema?.body !== undefined) return;
    const methods = hookList(route.method);
    if (!methods.some((m) => WITH_BODY.has(m))) return;
    route.preValidation = [refuseBody as preValidationHookHandler, ...hookList(route.preValidation)];
  });
}
