// Every purpose gets its own key derived from TXMAIL_SECRET_KEY (HKDF-SHA256), so a key leaked from one
// use (say, a VERP tag) reveals nothing about another (say, DKIM key encryption).
import { hkdfSync } from 'node:crypto';

export type KeyPurpose =
  | 'dkim-key-encryption'
  | 'verp'
  | 'session'
  | 'webhook-secret-encryption'
  | 'totp-secret-encryption'
  | 'sealed-content-encryption';

export function deriveKey(secret: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'txmail', purpose, 32));
}
