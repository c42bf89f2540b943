// The Feedback-ID header (deliver-message.ts feedbackId): `<account id>:<sending domain>:txmail` on every
// outgoing message, covered by the DKIM signature (h= names it), so that the signature verifies as it
// is and fails when someone charges the message to another tenant.
import { generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { buildMessage } from '../../src/delivery/build-message.js';
import { feedbackId } from '../../src/delivery/deliver-message.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKeyB64 = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const ACCOUNT = '0190a0b0-0000-7000-8000-000000000042';

async function verify(raw: Buffer): Promise<string> {
  const result = await dkimVerify(raw, {
    resolver: async (name: string, type: string) => {
      if (type === 'TXT' && name === 'txm202611._domainkey.acme.example')
        return [[`v=DKIM1; k=rsa; p=${publicKeyB64}`]];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    },
  } as Parameters<typeof dkimVerify>[1]);
  return (result.results[0] as { status: { result: string } }).status.result;
}

function build(fid: string | undefined): Promise<Buffer> {
  return buildMessage({
    message: {
      id: '0190a0b0-0000-7000-8000-000000000001',
      fromName: 'Acme',
      fromEmail: 'noreply@acme.example',
      toName: 'Jane',
      toEmail: 'jane@recipient.example',
      subject: 'Your code',
      html: '<p>Code <b>1</b></p>',
      createdAt: Date.UTC(2026, 10, 24, 12),
      ...(fid === undefined ? {} : { feedbackId: fid }),
    },
    hostname: 'mta.txmail.test',
    key: { domain: 'acme.example', selector: 'txm202611', privateKey },
  });
}

describe('Feedback-ID', () => {
  it('names the account, the sending domain and txmail', () => {
    expect(feedbackId(ACCOUNT, 'acme.example')).toBe(`${ACCOUNT}:acme.example:txmail`);
  });

  it('is on the message, signed (h= holds feedback-id), and the signature verifies', async () => {
    const raw = await build(feedbackId(ACCOUNT, 'acme.example'));
    const parsed = await simpleParser(raw);
    expect(parsed.headers.get('feedback-id')).toBe(`${ACCOUNT}:acme.example:txmail`);
    const signature = parsed.headers.get('dkim-signature') as { params: Record<string, string> };
    const signedHeaders = signature.params.h!.toLowerCase().replace(/\s+/g, '').split(':');
    expect(signedHeaders).toContain('feedback-id');
    expect(await verify(raw)).toBe('pass');
  });

  it('is covered: changing it breaks the signature', async () => {
    const raw = await build(feedbackId(ACCOUNT, 'acme.example'));
    const forged = Buffer.from(
      raw
        .toString('latin1')
        .replace(`${ACCOUNT}:acme.example:txmail`, `${ACCOUNT.replace('42', '43')}:acme.example:txmail`),
      'latin1',
    );
    expect(forged.equals(raw)).toBe(false);
    expect(await verify(forged)).not.toBe('pass');
  });
});
