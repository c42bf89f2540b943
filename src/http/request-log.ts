// What the HTTP listeners' logs say about a request (Fastify's access log at level debug, its error
// lines): the method, the path without its query string, the client's address. Node's report of a
// request it could not parse carries the raw bytes it read (the request line with its query, the
// headers with keys and cookies): those are left out too. The API's listener and the roles' health
// listeners both log through this.
import type { FastifyBaseLogger } from 'fastify';
import pino, { type Logger } from 'pino';
import { pathForLog } from '../log.js';

/** Fastify's request or Node's IncomingMessage: what a `req` log field may be given. */
interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  host?: string;
  socket?: { remoteAddress?: string; remotePort?: number } | null;
}

/** The logger a Fastify instance is given: `logger` with request and error fields made safe. */
export function requestLogger(logger: Logger): FastifyBaseLogger {
  return logger.child({}, { serializers: { req: requestForLog, err: errorForLog } }) as FastifyBaseLogger;
}

function requestForLog(req: LoggedRequest) {
  return {
    method: req.method,
    url: req.url === undefined ? undefined : pathForLog(req.url),
    host: req.host,
    remoteAddress: req.ip ?? req.socket?.remoteAddress,
    remotePort: req.socket?.remotePort,
  };
}

function errorForLog(err: Error): unknown {
  const out = pino.stdSerializers.err(err) as unknown;
  if (out && typeof out === 'object' && 'rawPacket' in out) delete (out as { rawPacket?: unknown }).rawPacket;
  return out;
}
