// Entry point of a message-building worker thread (see message-builder.ts).
import { buildMessage, type BuildRequest } from './build-message.js';

export default async function build(req: BuildRequest): Promise<Uint8Array> {
  return buildMessage(req);
}
