// The fingerprint of a received message: SHA-256 of its envelope and of its bytes' own SHA-256. The
// bytes are hashed a slice at a time, with a turn of the event loop after each MiB: hashed in one go
// (or handed to WebCrypto, which copies its input first), a 10 MB report held the loop 60–90 ms. Two
// messages with the same fingerprint are the same message sent twice to the same addresses: a relay
// that lost our 250 and retried.
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Bytes hashed in one turn of the loop: a few milliseconds. */
const HASH_PER_TURN = 1024 * 1024;

export async function messageDigest(
  mailFrom: string,
  rcptTo: readonly string[],
  pieces: readonly Uint8Array[],
): Promise<string> {
  const body = createHash('sha256');
  let hashed = 0;
  for (const piece of pieces) {
    for (let at = 0; at < piece.length;) {
      const n = Math.min(HASH_PER_TURN - hashed, piece.length - at);
      body.update(piece.subarray(at, at + n));
      at += n;
      hashed += n;
      if (hashed === HASH_PER_TURN) {
        await nextTurn();
        hashed = 0;
      }
    }
  }
  const envelope = Buffer.from(`${JSON.stringify([mailFrom, rcptTo])}\n`);
  return createHash('sha256').update(envelope).update(body.digest()).digest('hex');
}
