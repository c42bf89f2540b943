// Entry point of a message-building worker thread (see message-builder.ts).
import { Piscina } from 'piscina';
import { buildMessage, keptCopy, type BuildRequest } from './build-message.js';

/** What the thread answers: the bytes, and their compressed copy when asked (build-message.ts). */
export interface ThreadAnswer {
  bytes: Uint8Array;
  gzipped: Uint8Array | undefined;
}

/**
 * The message's bytes are moved to the event loop, not copied: signMessage writes them into an
 * ArrayBuffer of their own (dkim/sign.ts), which the transfer hands over whole; so is the compressed
 * copy when it has its own.
 */
export default async function build(req: BuildRequest): Promise<ThreadAnswer> {
  const bytes = await buildMessage(req);
  const gzipped = keptCopy(req, bytes);
  const answer: ThreadAnswer = { bytes, gzipped };
  const transfer = [bytes, gzipped].flatMap((b) =>
    b && b.byteOffset === 0 && b.buffer.byteLength === b.byteLength ? [b.buffer] : [],
  );
  // Piscina's Transferable (its two symbols: what to transfer, what to answer); the package does not
  // export that type.
  const movable = { [Piscina.transferableSymbol]: transfer, [Piscina.valueSymbol]: answer };
  return Piscina.move(movable as Parameters<typeof Piscina.move>[0] & object) as unknown as ThreadAnswer;
}
