// Identifiers: UUIDv7, so ids sort by creation time (the log pages by id, newest first).
import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

// The random bits come from a pool refilled 256 ids at a time: the library's own pool holds 16 ids,
// and each refill (a call into OpenSSL) costs some 4 µs: 300 ns an id here against 600 (the send
// route makes two ids a message, its log row and its queued event). The time and sequence are kept as
// the library keeps them when called without options: ids made in one millisecond still sort in the
// order they were made.
const pool = new Uint8Array(16 * 256);
let taken = pool.length;
let lastMs = -Infinity;
let seq = 0;

export function newId(): string {
  if (taken === pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  const random = pool.subarray(taken, (taken += 16));
  const now = Date.now();
  if (now > lastMs) {
    // A fresh 31-bit sequence per millisecond, from the random bytes (as the library seeds it).
    seq = (random[6]! << 23) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
    lastMs = now;
  } else {
    // Within the same millisecond (or the clock stepped back): one more, carrying into the time.
    seq = (seq + 1) | 0;
    if (seq === 0) lastMs++;
  }
  return v7({ random, msecs: lastMs, seq });
}

/**
 * The least id made at `ms` (UUIDv7 begins with its time in milliseconds, 48 bits of hex): every id
 * made before `ms` sorts below it, as text too.
 */
export function firstIdAt(ms: number): string {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}-0000-0000-000000000000`;
}

/** The text of an id as newId makes it (a UUID, lower-case hex), to build larger patterns from. */
export const ID_PATTERN = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const ID = new RegExp(`^${ID_PATTERN}$`);

/**
 * Whether `value` has an id's form: every id that comes from outside (a path, a cursor, a bounce's
 * VERP tag) is checked before it is looked up, so a malformed one is "not found" without a query
 * (PostgreSQL would refuse it as a uuid).
 */
export function isId(value: string): boolean {
  return ID.test(value);
}
