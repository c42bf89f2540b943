// What the API's listener allows a connection: how long a request may take to arrive, how many
// connections it holds at once, and how many of them one peer may hold (SECURITY.md, "HTTP API").
// Fastify turns Node's request timeout off by default: a client that sent its headers, then a body a
// byte at a time (or nothing), held its connection for ever, and 10,000 such connections took every
// descriptor the process had, its database's and its mail's included.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Server, Socket } from 'node:net';
import { clientNetwork } from '../client-network.js';
import type { MemoryLimits } from '../memory-budget.js';
import type { TrustProxy } from '../config.js';
import { AppError, errorBody, type ErrorCode } from '../errors.js';
import { SessionLimiter } from '../session-limiter.js';
import { trustedNetworks } from '../trusted-networks.js';
import { afterClosingAnswer } from './lingering-close.js';

/** A request's head must have arrived within this time, at most (Node's own default is 60 s). */
const HEADERS_TIMEOUT_MS = 30_000;
/** How often Node looks for requests past their time, at most (its default, 30 s). */
const TIMEOUT_CHECK_INTERVAL_MS = 5_000;
/** Connections one peer (an IPv4 address, an IPv6 /64) may hold open, by default. */
export const DEFAULT_CONNECTIONS_PER_PEER = 256;

export interface ConnectionLimits {
  /** A request's head and body must have arrived within this time: 408, closed (TXMAIL_HTTP_REQUEST_TIMEOUT). */
  requestTimeoutMs: number;
  /** Connections open at once on the listener. */
  total: number;
  /** Connections open at once from one peer (client-network.ts); 0: no such limit. */
  perPeer: number;
  /** Peers the per-peer limit leaves alone: the proxies TXMAIL_TRUST_PROXY trusts. */
  exempt: (address: string) => boolean;
  /** Bytes of large request bodies held at once, in all and per client network (body-memory.ts). */
  bodies: MemoryLimits;
}

/**
 * The peers TXMAIL_TRUST_PROXY trusts as proxies, which the per-peer limit leaves alone (every client
 * behind a proxy comes from its address): those listed, or every peer for `true` or a number of hops
 * (the operator said only proxies reach the port).
 */
export function trustedProxies(setting: TrustProxy): (address: string) => boolean {
  if (setting === false) return () => false;
  if (setting === true || typeof setting === 'number') return () => true;
  return trustedNetworks(setting);
}

/** Fastify's options for the request timeout: the whole request, its head, and how often Node checks. */
export function requestTimeouts(limits: ConnectionLimits): {
  requestTimeout: number;
  http: { headersTimeout: number; connectionsCheckingInterval: number };
} {
  const ms = limits.requestTimeoutMs;
  return {
    requestTimeout: ms,
    http: {
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, ms),
      // Often enough that a request is cut within a quarter of its time past the limit.
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_INTERVAL_MS, Math.max(100, ms / 4)),
    },
  };
}

/** Closes, as soon as it is accepted, a connection past either limit. */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.total;
  if (limits.perPeer === 0) return;
  // Counted per client network, as the receiver counts its sessions.
  const open = new SessionLimiter(limits.perPeer);
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if (limits.exempt(address)) return;
    const peer = clientNetwork(address);
    if (!open.take(peer)) {
      socket.destroy();
      return;
    }
    socket.once('close', () => open.release(peer));
  });
}

const CLIENT_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'request_timeout',
    message: "the request did not arrive whole within the server's request timeout",
  },
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', message: "the request's head is over 16 KiB" },
};

/**
 * Fastify's clientErrorHandler: what Node's HTTP parser refused before any route saw the request (two
 * Content-Lengths, a bad chunk, a header with a NUL, a request too slow), answered in txmail's own error
 * form (`code: message`, text/plain) instead of Fastify's JSON, and the connection closed.
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET') return;
  const known = err.code === undefined ? undefined : CLIENT_ERRORS[err.code];
  refuseAndClose(
    socket,
    new AppError(known?.code ?? 'bad_request', known?.message ?? 'the HTTP request is malformed'),
  );
}

/**
 * Answers `e` on the raw connection and closes it at once, so nothing more of it is parsed: what
 * answerClientError does with a refusal of Node's parser, and what is refused below any route (a
 * CONNECT, a body of tiny pieces).
 */
export function refuseAndClose(socket: Socket, e: AppError): void {
  if (socket.destroyed) return;
  // As Node's own handler: a response already begun on this connection (a refusal sent before the body
  // was read, a long answer being streamed) gets no second one written into it; the connection is
  // only closed.
  const response = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
  if (response?.headersSent) {
    socket.destroy();
    return;
  }
  // Nor one whose request was answered already, before its body came whole (a 401 for a missing key,
  // a 404): Node drains such a body, and a client that stopped sending it got a second, unasked-for
  // 408 on the connection when the request timed out. Node's parser keeps the request it is reading.
  const incoming = (socket as Socket & { parser?: { incoming?: AnsweredRequest | null } | null }).parser
    ?.incoming;
  if (incoming?.[answered] === true) {
    socket.destroy();
    return;
  }
  const body = errorBody(e.code, e.message);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status] ?? ''}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Requests one connection may have waiting for their answers (HTTP/1.1 pipelining). Node parses every
 * request that arrived in one read and hands each to the app at once: 20,000 cheap requests written in
 * one go held the event loop 0.5-1 s, whoever else was waiting. No client needs more than a few in
 * flight on one connection (browsers pipeline none); past this many the connection is closed.
 */
export const MAX_PIPELINED = 64;
const inFlight = Symbol('txmail.requestsInFlight');
/** Marks a request whose answer has been written whole (refuseAndClose writes no second one). */
const answered = Symbol('txmail.answered');
type AnsweredRequest = IncomingMessage & { [answered]?: boolean };
type CountedSocket = Socket & { [inFlight]?: number };
type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Closes a connection that has more than `max` requests waiting for their answers. Counted before
 * Fastify sees a request: Node goes on handing over the rest of a read's requests after the
 * connection is closed (about 1,900 of a 64 KiB read of small ones), and each of those would have been
 * routed and given Fastify's request and reply objects only to be dropped. Such a request now costs
 * only Node's parse. A request stops counting when its answer is done with (`close`), however it was
 * answered: Fastify's onResponse hook never runs for an answer its frameworkErrors gave (a bad URL),
 * and 64 of those once closed a kept-alive connection for good. Every answer is marked nosniff here
 * too, those included (errors in text/plain echo the path).
 */
export function limitPipelining(app: FastifyInstance, max = MAX_PIPELINED): void {
  const server = app.server;
  // Fastify's own handler, the one 'request' listener it gave the server it made.
  const handlers = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket as CountedSocket;
    // Closed (by the check below, or by the client): no one is left to answer. Or after an answer that
    // closes the connection (lingering-close.ts): read and dropped, never carried out.
    if (socket.destroyed) return;
    if (afterClosingAnswer(socket)) {
      req.resume();
      return;
    }
    const waiting = (socket[inFlight] ?? 0) + 1;
    socket[inFlight] = waiting;
    if (waiting > max) {
      // No answer: the client has asked for more than it could be waiting for.
      socket.destroy();
      return;
    }
    res.once('close', () => {
      socket[inFlight] = (socket[inFlight] ?? 1) - 1;
      if (res.writableFinished) (req as AnsweredRequest)[answered] = true;
    });
    res.setHeader('x-content-type-options', 'nosniff');
    for (const handler of handlers) handler.call(server, req, res);
  });
}
