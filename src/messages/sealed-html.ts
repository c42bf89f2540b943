// The HTML of txmail's own mail carrying a sign-in link (sign-up, password reset, invitation:
// SystemMessage.sealed) is stored sealed: AES-256-GCM under a key derived for
// `sealed-content-encryption`. The token tables hold only hashes, and a copy of the database must not
// hold the live link either: PostgreSQL keeps removed rows in dead tuples and WAL segments, and a backup
// may be taken before the retention sweep removes the content (docs/design.md §9, content retention).
// The worker opens it to build the message (delivery/deliver-message.ts); nothing else reads it, since
// the log withholds a sealed message's content (system-mail.ts, sealedContent).
import { deriveKey } from '../crypto/derive-key.js';
import { SecretBox } from '../crypto/secret-box.js';

export type SealedHtml = Pick<SecretBox, 'seal' | 'open'>;

export function sealedHtmlBox(secretKey: string): SealedHtml {
  return new SecretBox(deriveKey(secretKey, 'sealed-content-encryption'));
}
