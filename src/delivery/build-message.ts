// The bytes that go on the wire for one message: composed (compose.ts), then DKIM-signed (sign.ts).
// CPU-bound (the RSA signature dominates), so a MessageBuilder may run it on worker threads.
import { gzipSync } from 'node:zlib';
import { signMessage, type SigningKey } from '../dkim/sign.js';
import { composeMessage, type OutgoingMessage } from './compose.js';

export interface BuildRequest {
  message: OutgoingMessage;
  hostname: string;
  /** Absent: not signed (the simulator's mail from a domain the account may not send from). */
  key?: SigningKey;
  /**
   * Also compress the bytes for keeping (the log's raw view), when they are no larger than this: on the
   * build thread, not on the event loop (zlib's per-call set-up cost more there than the compression).
   */
  keepUpTo?: number;
}

/** A built message, and its bytes compressed for keeping when the request asked and they fit. */
export interface BuiltMessage {
  bytes: Buffer;
  gzipped: Buffer | undefined;
}

/** Level 1: kept bytes are read rarely; the cheapest compression still takes about two thirds off. */
export const KEPT_GZIP_LEVEL = 1;

/** The compressed copy `req` asks for, if any (gzip, level KEPT_GZIP_LEVEL). */
export function keptCopy(req: BuildRequest, bytes: Uint8Array): Buffer | undefined {
  return req.keepUpTo !== undefined && bytes.byteLength <= req.keepUpTo
    ? gzipSync(bytes, { level: KEPT_GZIP_LEVEL })
    : undefined;
}

export async function buildMessage(req: BuildRequest): Promise<Buffer> {
  const composed = await composeMessage(req.message, req.hostname);
  return req.key ? signMessage(composed, req.key) : composed;
}
