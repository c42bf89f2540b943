// Request bodies held in memory, bounded for the whole listener and for each client network
// (SECURITY.md, "HTTP API"). Fastify reads a body whole before its route runs, and a large one then
// waits its turn for the parsing thread (json-body.ts): each connection could hold up to the body limit
// (10 MiB), and an attack probe held 4.3 GB with 240 clients sending 10 MiB bodies. A body declared
// over COUNTED_ABOVE_BYTES, or sent chunked (of any size), is counted as its bytes arrive, against the
// listener's budget and its client network's share; past either, the request is answered `429
// server_busy` and its connection closed once the client has read the answer (lingering-close.ts).
// Its bytes are given back, once, when its answer has been sent or its connection closes, however that
// happens; what arrives after is read and dropped uncounted (a 429's or a 413's rest, a body no route
// read). Bodies up to COUNTED_ABOVE_BYTES are bounded by the
// connection caps alone (4,096 × 64 KiB = 256 MiB at the defaults); counting them would put a stream on
// every send.
import { Transform, type TransformCallback } from 'node:stream';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { clientNetwork } from '../client-network.js';
import { AppError } from '../errors.js';
import { MemoryBudget, type MemoryLimits } from '../memory-budget.js';

/** Bodies of at most this many declared bytes are not counted (the JSON thread's threshold too). */
export const COUNTED_ABOVE_BYTES = 64 * 1024;

/** What to run when a socket closes: one listener a socket, however many requests are pipelined on it. */
const pending = new WeakMap<Socket, Set<() => void>>();
function onSocketClose(socket: Socket, run: () => void): void {
  let set = pending.get(socket);
  if (!set) {
    const created = new Set<() => void>();
    pending.set(socket, created);
    socket.once('close', () => {
      for (const f of [...created]) f();
      pending.delete(socket);
    });
    set = created;
  }
  set.add(run);
}

const busy = () =>
  new AppError(
    'server_busy',
    'the server is holding as many large request bodies as it allows; nothing was done, retry shortly',
    { 'Retry-After': '1' },
  );

/**
 * Counts the large bodies of `app`'s requests against `limits` (see the top of this file); `onChange` is
 * told the bytes held after each change.
 */
export function limitBodyMemory(
  app: FastifyInstance,
  limits: MemoryLimits,
  onChange?: (held: number) => void,
): MemoryBudget {
  const memory = new MemoryBudget(limits, onChange);
  if (limits.total === 0 && limits.perPeer === 0) return memory;
  // A callback hook: the send route's small bodies pay a few comparisons.
  app.addHook('preParsing', (request, reply, payload, done) => {
    // A request has a body only with a Content-Length or a Transfer-Encoding (RFC 9112 §6.3); Fastify
    // reads none of a GET's or a HEAD's, and Node drops it.
    const declared = request.headers['content-length'];
    const chunked = request.headers['transfer-encoding'] !== undefined;
    if (
      request.method === 'GET' ||
      request.method === 'HEAD' ||
      (!chunked && (declared === undefined || Number(declared) <= COUNTED_ABOVE_BYTES))
    ) {
      done(null, payload);
      return;
    }
    const peer = clientNetwork(request.ip);
    let held = 0;
    // Once the answer is sent or the connection gone, nothing more is counted: what still arrives is
    // dropped, as Node drops a body nobody read.
    let over = false;
    const socket = request.raw.socket as Socket | null;
    const giveBack = () => {
      if (over) return;
      over = true;
      reply.raw.removeListener('close', giveBack);
      if (socket) pending.get(socket)?.delete(giveBack);
      memory.give(peer, held);
      payload.unpipe(counted);
      payload.resume();
    };
    // The response's 'close' comes when its answer is sent; one queued behind a pipelined request gets
    // none when the connection closes, so the socket's too.
    reply.raw.once('close', giveBack);
    if (socket) onSocketClose(socket, giveBack);
    const counted = new Transform({
      transform(chunk: Buffer, _encoding: BufferEncoding, next: TransformCallback) {
        if (over) {
          next();
          return;
        }
        if (!memory.take(peer, chunk.length)) {
          // The rest of the body is dropped uncounted, and the connection closed after the answer.
          reply.header('connection', 'close');
          next(busy());
          return;
        }
        held += chunk.length;
        next(null, chunk);
      },
    });
    // Fastify listens for the refusal only while it reads the body (not for a GET, a 415, after a 413).
    counted.on('error', () => undefined);
    // Fastify checks the body's length against Content-Length through this (the bytes pass unchanged).
    Object.defineProperty(counted, 'receivedEncodedLength', { get: () => held });
    done(null, payload.pipe(counted));
  });
  return memory;
}
