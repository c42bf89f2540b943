// What a message being received holds in memory, as the receiver counts it (receiver.ts): a leaf, so
// the configuration can check its memory limits against the largest message.

/** The base64 text of `bytes` bytes, as stored (4 characters for 3 bytes). */
export const base64Chars = (bytes: number) => Math.ceil(bytes / 3) * 4;

/** Bytes of a message above which its raw text is stored in parts (db/inbound-repo.ts, migration 038). */
export const RAW_PARTS_ABOVE = 384 * 1024;
/** Bytes in a part: a multiple of 3, so that the parts' base64 texts are the whole's, cut (384 KiB each). */
export const RAW_PART_BYTES = 3 * 128 * 1024;
/** What writing a message in parts holds beyond its bytes: one part, and its base64 text. */
export const RAW_PART_COPIES = RAW_PART_BYTES + base64Chars(RAW_PART_BYTES);

/** Whether a message of `bytes` bytes is stored in parts (db/inbound-repo.ts), not whole. */
export const storedInParts = (bytes: number) => bytes > RAW_PARTS_ABOVE;

/**
 * What storing a message of `bytes` bytes copies beside the bytes as received: stored whole, the bytes
 * in one piece and their base64 text; stored in parts, one part and its base64 text at a time.
 */
export const storeCopies = (bytes: number) =>
  storedInParts(bytes) ? RAW_PART_COPIES : bytes + base64Chars(bytes);

/** What a message of `bytes` bytes holds at most while it is stored: as received, and its copies. */
export const memoryFor = (bytes: number) => bytes + storeCopies(bytes);

/**
 * The part of TXMAIL_INBOUND_MEMORY untrusted clients leave free, as they leave 50 sessions: the
 * operator's relays still get their mail in while a few networks hold the rest.
 */
export const TRUSTED_MEMORY_SHARE = 1 / 8;
