// DKIM key material: RSA-2048 key pairs, dated selectors and the DNS TXT record that publishes a key.
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';

export interface DkimKeyPair {
  privateKeyPem: string;
  /** The public key as the DNS record's p= value: base64 of the DER SubjectPublicKeyInfo. */
  publicKey: string;
}

export async function generateDkimKey(): Promise<DkimKeyPair> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKey: publicKey.toString('base64') };
}

/** A dated selector, e.g. `txm202611`: a rotated key gets a new name, so old signatures keep verifying. */
export function dkimSelector(at: number): string {
  const d = new Date(at);
  return `txm${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

export function dkimRecordName(selector: string, domain: string): string {
  return `${selector}._domainkey.${domain}`;
}

export function dkimRecordValue(publicKey: string): string {
  return `v=DKIM1; k=rsa; p=${publicKey}`;
}
