// The Idempotency-Key header of the routes that queue mail (send, re-send; docs/design.md §3): at most
// one, 1–256 printable ASCII characters, else refused before anything is stored.
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';

const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,256}$/;

/** The request's Idempotency-Key, undefined when it has none; throws invalid_idempotency_key. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  const key = Array.isArray(header) ? header[0] : header;
  if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
    throw new AppError('invalid_idempotency_key', 'Idempotency-Key must be 1–256 printable ASCII characters');
  }
  return key;
}
