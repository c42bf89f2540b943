// DKIM-signs a composed message (RFC 6376; relaxed/relaxed, rsa-sha256) and returns it with the
// DKIM-Signature header prepended. nodemailer's signer takes a parsed KeyObject, so the private key is
// parsed once per key (DkimKeys caches it) instead of once per message: parsing an RSA-2048 PEM costs
// about as much as the signature itself.
import type { KeyObject } from 'node:crypto';
import { Readable } from 'node:stream';
import DKIM from 'nodemailer/lib/dkim';

export interface SigningKey {
  domain: string;
  selector: string;
  privateKey: KeyObject;
}

// The headers a transactional message carries that a forger would want to change.
const SIGNED_HEADERS = [
  'From',
  'To',
  'Subject',
  'Date',
  'Message-ID',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'Reply-To',
  // Who the message is from as the mailbox provider's feedback loop counts it: a forger must not
  // be able to charge complaints to another tenant.
  'Feedback-ID',
].join(':');

export async function signMessage(raw: Buffer, key: SigningKey): Promise<Buffer> {
  const signer = new DKIM({
    domainName: key.domain,
    keySelector: key.selector,
    privateKey: key.privateKey,
    headerFieldNames: SIGNED_HEADERS,
    cacheDir: false,
  });
  const chunks: Buffer[] = [];
  for await (const chunk of signer.sign(Readable.from([raw]))) chunks.push(chunk as Buffer);
  const signed = Buffer.concat(chunks);
  // nodemailer leaves a message unsigned when the signature fails; mail must never leave unsigned.
  if (!signed.subarray(0, 16).toString('latin1').startsWith('DKIM-Signature:')) {
    throw new Error(`DKIM signing failed for ${key.domain}`);
  }
  return signed;
}
