// What Node answers on its own, outside any route, answered in txmail's error form (`code: message`,
// text/plain) or handled as a route would be (a blind attack probe found each answered with an empty
// body or none at all):
//   - an HTTP/1.1 request without a Host header (RFC 9112 §3.2): Node's empty 400 unless told not to
//     require one (app.ts `requireHostHeader: false`); refused here with a body;
//   - `Expect:` with anything but 100-continue: Node's empty 417; RFC 9110 §10.1.1 lets a server ignore
//     an expectation it does not know, and the request is served as without it;
//   - CONNECT (this is not a proxy): Node closed the connection without a word.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { refuseAndClose } from './connection-limits.js';
import { sendError } from './errors.js';

export function answerProtocolEdges(server: Server): void {
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    server.emit('request', req, res);
  });
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    refuseAndClose(socket, new AppError('bad_request', 'CONNECT is not served here: this is not a proxy'));
  });
}

/** Register on the root instance: an HTTP/1.1 request without Host is refused before any other hook. */
export function refuseMissingHost(app: FastifyInstance): void {
  // A callback hook: two property reads per request on the send path, no promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.headers.host !== undefined || request.raw.httpVersion !== '1.1') return done();
    reply.header('Connection', 'close');
    sendError(
      reply,
      new AppError('bad_request', 'an HTTP/1.1 request must carry a Host header (RFC 9112 §3.2)'),
    );
  });
}
