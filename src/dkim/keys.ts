// DKIM key material: RSA-2048 and Ed25519 key pairs, dated selectors and the DNS TXT record that
// publishes a key.
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { DkimAlgorithmName } from '../db/schema.js';

export interface DkimKeyPair {
  privateKeyPem: string;
  /**
   * The public key as the DNS record's p= value: for RSA base64 of the DER SubjectPublicKeyInfo, for
   * Ed25519 base64 of the raw 32-byte key (RFC 8463 §4.2).
   */
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

/** An Ed25519 pair (fast to make: no pool needed). */
export async function generateEd25519DkimKey(): Promise<DkimKeyPair> {
  const { privateKey, publicKey } = await promisify(generateKeyPair)('ed25519', {
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  // The SubjectPublicKeyInfo of an Ed25519 key is a fixed 12-byte prefix and the raw key.
  return { privateKeyPem: privateKey, publicKey: publicKey.subarray(-32).toString('base64') };
}

/** A dated selector, e.g. `txm202611`: a rotated key gets a new name, so old signatures keep verifying. */
export function dkimSelector(at: number): string {
  const d = new Date(at);
  return `txm${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The dated selector of a key of this algorithm: Ed25519 keys end in `e` (`txm202611e`). */
export function dkimSelectorFor(algorithm: DkimAlgorithmName, at: number): string {
  return dkimSelector(at) + (algorithm === 'ed25519-sha256' ? 'e' : '');
}

export function dkimRecordName(selector: string, domain: string): string {
  return `${selector}._domainkey.${domain}`;
}

export function dkimRecordValue(publicKey: string, algorithm: DkimAlgorithmName = 'rsa-sha256'): string {
  return `v=DKIM1; k=${algorithm === 'ed25519-sha256' ? 'ed25519' : 'rsa'}; p=${publicKey}`;
}
