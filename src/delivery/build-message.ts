// The bytes that go on the wire for one message: composed (compose.ts), then DKIM-signed (sign.ts).
// CPU-bound (the RSA signature dominates), so a MessageBuilder may run it on worker threads.
import { signMessage, type SigningKey } from '../dkim/sign.js';
import { composeMessage, type OutgoingMessage } from './compose.js';

export interface BuildRequest {
  message: OutgoingMessage;
  hostname: string;
  /** Absent: not signed (the simulator's mail from a domain the account may not send from). */
  key?: SigningKey;
}

export async function buildMessage(req: BuildRequest): Promise<Buffer> {
  const composed = await composeMessage(req.message, req.hostname);
  return req.key ? signMessage(composed, req.key) : composed;
}
