// A listener that is closing answers what still reaches it (a request on a kept-alive connection) with
// `503 shutting_down` in txmail's error form (docs/design.md §3), not Fastify's own JSON 503: a client
// sees one error format, and the answer says nothing was done, so retrying elsewhere is safe.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { sendError } from './errors.js';

/** Register on the root instance, before the routes: the refusal runs before any other hook. */
export function registerClosingRefusal(app: FastifyInstance): void {
  let closing = false;
  // Fastify marks itself closing, then runs preClose, then stops accepting connections.
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  // A callback hook: one boolean test per request on the send path, no promise.
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    reply.header('Connection', 'close');
    sendError(
      reply,
      new AppError(
        'shutting_down',
        'this server is shutting down and took nothing from this request; retry it (another instance answers, or this one once restarted)',
      ),
    );
  });
}
