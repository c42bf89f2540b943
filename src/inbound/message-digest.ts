// The fingerprint of a received message: SHA-256 of its envelope and of its bytes' own SHA-256,
// computed off the event loop (WebCrypto runs the digests on libuv's thread pool), without copying the
// message to put the envelope in front of it. Two messages with the same fingerprint are the same
// message sent twice to the same addresses: a relay that lost our 250 and retried.
import { webcrypto } from 'node:crypto';

export async function messageDigest(
  mailFrom: string,
  rcptTo: readonly string[],
  bytes: Buffer,
): Promise<string> {
  const body = Buffer.from(await webcrypto.subtle.digest('SHA-256', bytes));
  const envelope = Buffer.from(`${JSON.stringify([mailFrom, rcptTo])}\n`);
  const digest = await webcrypto.subtle.digest('SHA-256', Buffer.concat([envelope, body]));
  return Buffer.from(digest).toString('hex');
}
