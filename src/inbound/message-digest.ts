// The fingerprint of a received message: SHA-256 of its envelope and bytes, computed off the event
// loop (WebCrypto runs the digest on libuv's thread pool). Two messages with the same fingerprint are
// the same message sent twice to the same addresses: a relay that lost our 250 and retried.
import { webcrypto } from 'node:crypto';

export async function messageDigest(
  mailFrom: string,
  rcptTo: readonly string[],
  bytes: Buffer,
): Promise<string> {
  const envelope = Buffer.from(`${JSON.stringify([mailFrom, rcptTo])}\n`);
  const digest = await webcrypto.subtle.digest('SHA-256', Buffer.concat([envelope, bytes]));
  return Buffer.from(digest).toString('hex');
}
