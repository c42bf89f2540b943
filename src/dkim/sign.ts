// DKIM-signs a composed message (RFC 6376; relaxed/relaxed, rsa-sha256) and returns it with the
// DKIM-Signature header prepended.
import { dkimSign } from 'mailauth/lib/dkim/sign.js';
import type { SigningKey } from './dkim-keys.js';

// The headers a transactional message carries that a forger would want to change.
const SIGNED_HEADERS = [
  'From',
  'To',
  'Subject',
  'Date',
  'Message-ID',
  'MIME-Version',
  'Content-Type',
  'Reply-To',
];

export async function signMessage(raw: Buffer, key: SigningKey, at: number): Promise<Buffer> {
  // mailauth signs only what is listed in signatureData; a top-level signingDomain signs nothing.
  const result = await dkimSign(raw, {
    canonicalization: 'relaxed/relaxed',
    algorithm: 'rsa-sha256',
    signTime: new Date(at),
    headerList: SIGNED_HEADERS,
    signatureData: [
      {
        signingDomain: key.domain,
        selector: key.selector,
        privateKey: key.privateKeyPem,
        algorithm: 'rsa-sha256',
        canonicalization: 'relaxed/relaxed',
      },
    ],
  } as unknown as Parameters<typeof dkimSign>[1]);
  if (result.errors && result.errors.length > 0) {
    throw new Error(`DKIM signing failed: ${result.errors.map((e) => String(e)).join('; ')}`);
  }
  return Buffer.concat([Buffer.from(result.signatures, 'utf8'), raw]);
}
