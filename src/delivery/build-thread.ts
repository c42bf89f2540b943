// Entry point of a message-building worker thread (see message-builder.ts).
import { Piscina } from 'piscina';
import { buildMessage, type BuildRequest } from './build-message.js';

/**
 * The message's bytes are moved to the event loop, not copied: signMessage writes them into an
 * ArrayBuffer of their own (dkim/sign.ts), which the transfer hands over whole.
 */
export default async function build(req: BuildRequest): Promise<Uint8Array> {
  const bytes = await buildMessage(req);
  const own = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength;
  return own ? (Piscina.move(bytes) as unknown as Uint8Array) : bytes;
}
