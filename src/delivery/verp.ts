// VERP envelope senders: `b+<message id><tag>@<return-path domain>`. A bounce names the message in the
// address it comes back to, and the HMAC tag lets the receiver refuse forged bounces without a look-up.
import { createHmac, timingSafeEqual } from 'node:crypto';

const TAG_LENGTH = 16; // hex characters: 64 bits of HMAC-SHA256
// Lower-case hex only: some MTAs lower-case the local part of the return path.
const TOKEN = /^b\+([0-9a-f]{32})([0-9a-f]{16})$/;

export class Verp {
  constructor(private readonly key: Buffer) {}

  /** The envelope sender for a message. */
  address(messageId: string, domain: string): string {
    const hex = messageId.replace(/-/g, '').toLowerCase();
    return `b+${hex}${this.tag(hex)}@${domain}`;
  }

  /** The message id a local part stands for, or undefined when it is not one of ours (or forged). */
  messageId(localPart: string): string | undefined {
    const m = TOKEN.exec(localPart.toLowerCase());
    if (!m) return undefined;
    const expected = Buffer.from(this.tag(m[1]!));
    if (!timingSafeEqual(expected, Buffer.from(m[2]!))) return undefined;
    const h = m[1]!;
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  private tag(hex: string): string {
    return createHmac('sha256', this.key).update(hex).digest('hex').slice(0, TAG_LENGTH);
  }
}
