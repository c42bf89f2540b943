// Encryption at rest (AES-256-GCM) for secrets txmail must be able to read back, e.g. DKIM private keys.
// Stored form: `v1:<iv>:<tag>:<ciphertext>`, base64url parts.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ct]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join(':');
  }

  open(sealed: string): string {
    const [version, iv, tag, ct] = sealed.split(':');
    if (version !== 'v1' || !iv || !tag || ct === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }
}
