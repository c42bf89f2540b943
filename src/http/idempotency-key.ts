// The Idempotency-Key header of the routes that queue mail (send, re-send; docs/design.md §3): at most
// one, 1–256 printable ASCII characters, else refused before anything is stored.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

/** Also the header's pattern in /openapi.json (openapi-headers.ts). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7e]{1,256}$/;

/** The request's Idempotency-Key, undefined when it has none; throws invalid_idempotency_key. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  const key = Array.isArray(header) ? header[0] : header;
  // Node joins repeated headers with ", ", which a key may hold: the raw headers tell.
  if (key !== undefined && countHeader(request.raw.rawHeaders, 'idempotency-key') > 1) {
    throw new AppError('invalid_idempotency_key', 'send one Idempotency-Key header, not several');
  }
  if (key !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new AppError('invalid_idempotency_key', 'Idempotency-Key must be 1–256 printable ASCII characters');
  }
  return key;
}

/** How many times the raw headers (name, value, name, value…) name `lowerName`. */
function countHeader(raw: string[], lowerName: string): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === lowerName) n++;
  return n;
}
