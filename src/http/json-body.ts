// How the API reads JSON bodies: small ones on the event loop with Fastify's own parser, large ones on
// the parsing thread (json-thread.ts), so no body, however large or however escaped, holds the loop.
import { isUtf8 } from 'node:buffer';
import { errorCodes, type FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';
import { noRoute } from './errors.js';
import {
  ClientGone,
  FORBIDDEN_KEY_WORDS,
  JsonParserThread,
  ThreadStopped,
  type ThreadBody,
} from './json-thread.js';

/** Above this many bytes a body is parsed on the thread (a hop costs about what parsing 64 KiB does). */
const OFFLOAD_ABOVE_BYTES = 64 * 1024;

// JSON is UTF-8 (RFC 8259 §8.1): a body declared in another charset would be read as UTF-8 all the same,
// its é become U+FFFD, so it is refused instead.
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;
const UTF8 = /^utf-?8$/i;

/** Returns the parsing thread (tests look at what it holds). */
export function registerJsonBody(app: FastifyInstance, offloadAbove = OFFLOAD_ABOVE_BYTES): JsonParserThread {
  const thread = new JsonParserThread();
  // Refuse what Fastify's default parser refuses: __proto__ keys and constructor.prototype.
  const onLoop = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // The body read here rather than by Fastify (parseAs), which would join a large one into one buffer on
  // the event loop: its limits are checked as Fastify checks them (lib/content-type-parser.js rawBody).
  app.addContentTypeParser('application/json', (request, payload, done) => {
    // No route: answered 404 unread (an error closes the connection, so the rest is not read either).
    // Otherwise anyone could have 10 MiB read and parsed by naming a path that does not exist.
    if (request.is404) {
      done(noRoute(request), undefined);
      return;
    }
    // A compressed body (gzip, br) would be read as its compressed bytes: refused as what it is.
    const coding = request.headers['content-encoding']?.trim().toLowerCase();
    if (coding !== undefined && coding !== '' && coding !== 'identity') {
      done(
        new AppError(
          'unsupported_media_type',
          `send the JSON without a content coding, not ${coding.slice(0, 40)} (Content-Encoding)`,
        ),
        undefined,
      );
      return;
    }
    const charset = CHARSET.exec(request.headers['content-type'] ?? '')?.[1];
    if (charset !== undefined && !UTF8.test(charset)) {
      done(
        new AppError('unsupported_media_type', `send the JSON as UTF-8, not ${charset.slice(0, 40)}`),
        undefined,
      );
      return;
    }
    const limit = request.routeOptions.bodyLimit ?? Infinity;
    const declared = Number(request.headers['content-length']);
    if (declared > limit) {
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined);
      return;
    }
    // Small bodies are kept here and parsed on the loop; one declared (or grown) past offloadAbove
    // goes to the thread as it arrives.
    let pieces: Buffer[] = [];
    let received = 0;
    let offloaded: ThreadBody | undefined;
    let finished = false;
    const offload = () => {
      offloaded = thread.body();
      for (const piece of pieces) offloaded.write(piece);
      pieces = [];
      // A request whose connection closes in the middle of its body may end neither way: its pieces
      // must not stay in the thread. (`complete`: the whole body arrived, and a stream of preParsing's
      // may still be handing it on.) Small bodies, kept here, need no such care.
      request.raw.once('close', () => {
        if (finished || request.raw.complete) return;
        stop();
        offloaded?.drop();
      });
    };
    if (declared > offloadAbove) offload();

    const stop = () => {
      finished = true;
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onEnd);
    };
    const onData = (chunk: Buffer | string) => {
      const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      received += piece.length;
      // A stream of preParsing's that decodes may count what came over the wire apart (Fastify's check).
      const { receivedEncodedLength = 0 } = payload as { receivedEncodedLength?: number };
      if (received > limit || receivedEncodedLength > limit) {
        stop();
        offloaded?.drop();
        done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined);
        return;
      }
      if (offloaded) {
        offloaded.write(piece);
        return;
      }
      pieces.push(piece);
      if (received > offloadAbove) offload();
    };
    const onEnd = (err?: Error & { statusCode?: number }) => {
      stop();
      if (err != null) {
        offloaded?.drop();
        if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
        done(err, undefined);
        return;
      }
      const onWire = (payload as { receivedEncodedLength?: number }).receivedEncodedLength || received;
      if (!Number.isNaN(declared) && onWire !== declared) {
        offloaded?.drop();
        done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH(), undefined);
        return;
      }
      if (received === 0) {
        // A route that takes no body: many HTTP clients send `Content-Type: application/json` on every
        // request, so an empty body there is no body (docs/API.md: `{}` or nothing), not invalid JSON.
        if (request.routeOptions.schema?.body === undefined) done(null, undefined);
        else done(new AppError('invalid_json', 'the body is empty; send a JSON object'), undefined);
        return;
      }
      if (!offloaded) {
        const bytes = Buffer.concat(pieces, received);
        // Refused, not replaced (json-thread.ts says why).
        if (!isUtf8(bytes)) {
          done(new AppError('invalid_json', 'the body is not valid UTF-8'), undefined);
          return;
        }
        const text = bytes.toString('utf8');
        onLoop(request, text, (err, value) => (err ? done(loopRefusal(text), undefined) : done(null, value)));
        return;
      }
      // A client that has closed its connection by the body's turn is not waited for (json-thread.ts).
      // The socket, not the request stream: that one is destroyed as soon as its body has been read.
      const socket = request.raw.socket as { destroyed?: boolean } | null | undefined;
      const gone = () => socket?.destroyed === true;
      offloaded.parse(gone).then(
        // The request goes on after the loop has looked at its sockets once more: copying a large value
        // back from the thread is already a turn's worth of its time (about 40 ms for 10 MiB of text).
        // (The answer arrives in the loop's poll phase; one setImmediate would run before the next poll.)
        (value) => setImmediate(() => setImmediate(() => done(null, value))),
        (e: Error) => done(threadRefusal(e), undefined),
      );
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onEnd);
    payload.resume();
  });
  app.addHook('onClose', async () => thread.close());
  return thread;
}

/**
 * Why Fastify's parser refused a small body, in words a client can act on: Fastify says only "Body is
 * not valid JSON" whether the JSON is malformed (JSON.parse says where) or holds a key it refuses
 * (json-thread.ts refuses the same, in the same words: FORBIDDEN_KEY_WORDS). Runs only for a refused
 * body of at most 64 KiB.
 */
function loopRefusal(text: string): AppError {
  try {
    // Without a byte-order mark, which Fastify's parser skips and JSON.parse does not.
    JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    return new AppError('invalid_json', `the body is not valid JSON (${(err as Error).message})`);
  }
  return new AppError('invalid_json', `the body is not valid JSON (${FORBIDDEN_KEY_WORDS})`);
}

/** What a body the thread did not parse is answered. */
function threadRefusal(e: Error): Error {
  if (e instanceof ClientGone)
    return new AppError('bad_request', 'the connection closed before the body was read');
  // The thread stopped with the body's bytes (it is started again for the next): the client may retry.
  if (e instanceof ThreadStopped) {
    return new AppError(
      'service_unavailable',
      'the request body could not be read this time; send it again',
      {
        'Retry-After': '1',
      },
    );
  }
  return e;
}
