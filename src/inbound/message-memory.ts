// What a message being received holds in memory, as the receiver counts it (receiver.ts): a leaf, so
// the configuration can check its memory limits against the largest message.

/** The base64 text of `bytes` bytes, as stored (4 characters for 3 bytes). */
export const base64Chars = (bytes: number) => Math.ceil(bytes / 3) * 4;

/** What a message of `bytes` bytes holds at most: as received, in one piece, and as base64. */
export const memoryFor = (bytes: number) => 2 * bytes + base64Chars(bytes);

/**
 * The part of TXMAIL_INBOUND_MEMORY untrusted clients leave free, as they leave 50 sessions: the
 * operator's relays still get their mail in while a few networks hold the rest.
 */
export const TRUSTED_MEMORY_SHARE = 1 / 8;
