// How the API reads JSON bodies: small ones on the event loop with Fastify's own parser, large ones on
// the parsing thread (json-thread.ts), so no body, however large or however escaped, holds the loop.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { ClientGone, JsonParserThread } from './json-thread.js';

/** Above this many bytes a body is parsed on the thread (a hop costs about what parsing 64 KiB does). */
const OFFLOAD_ABOVE_BYTES = 64 * 1024;

// JSON is UTF-8 (RFC 8259 §8.1): a body declared in another charset would be read as UTF-8 all the same,
// its é become U+FFFD, so it is refused instead.
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;
const UTF8 = /^utf-?8$/i;

export function registerJsonBody(app: FastifyInstance, offloadAbove = OFFLOAD_ABOVE_BYTES): void {
  const thread = new JsonParserThread();
  // Refuse what Fastify's default parser refuses: __proto__ keys and constructor.prototype.
  const onLoop = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const charset = CHARSET.exec(request.headers['content-type'] ?? '')?.[1];
    if (charset !== undefined && !UTF8.test(charset)) {
      done(
        new AppError('unsupported_media_type', `send the JSON as UTF-8, not ${charset.slice(0, 40)}`),
        undefined,
      );
      return;
    }
    const bytes = body as Buffer;
    if (bytes.length === 0) {
      done(new AppError('invalid_json', 'the body is empty; send a JSON object'), undefined);
      return;
    }
    if (bytes.length <= offloadAbove) {
      onLoop(request, bytes.toString('utf8'), done);
      return;
    }
    // A client that has closed its connection by the body's turn is not waited for (json-thread.ts).
    // The socket, not the request stream: that one is destroyed as soon as its body has been read.
    const socket = request.raw.socket as { destroyed?: boolean } | null | undefined;
    const gone = () => socket?.destroyed === true;
    thread.parse(bytes, gone).then(
      (value) => done(null, value),
      (err: Error) =>
        done(
          err instanceof ClientGone
            ? new AppError('bad_request', 'the connection closed before the body was read')
            : err,
          undefined,
        ),
    );
  });
  app.addHook('onClose', async () => thread.close());
}
