// txmail's DKIM signer (src/dkim/sign.ts) against independent verifiers: dkimpy, OpenDKIM and mailauth,
// RSA alone and RSA with Ed25519 beside it (RFC 8463); oversigned headers (an added From breaks the
// signature), t=, relaxed canonicalization of headers and bodies, folding.
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeMessage, type OutgoingMessage } from '../src/delivery/compose.js';
import { dkimRecordName, dkimRecordValue } from '../src/dkim/keys.js';
import { bodyHash, relaxedHeader, signMessage, type SigningKey } from '../src/dkim/sign.js';
import {
  dkimpyVerify,
  mailauthVerify,
  opendkimVerify,
  type KeyRecords,
  type Verdict,
} from './helpers/dkim-verifiers.js';
import { assertLinearForShapes, measureGrowth } from './helpers/linear-time.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ed = generateKeyPairSync('ed25519');
const DOMAIN = 'acme.example';
// A moment ago: verifiers refuse signatures from the future (OpenDKIM: "signature timestamp in the future").
const SIGNED_AT = Date.now() - 30_500;

const spki = (k: KeyObject) => k.export({ type: 'spki', format: 'der' });
const records: KeyRecords = {
  [dkimRecordName('txm202611', DOMAIN)]: dkimRecordValue(spki(rsa.publicKey).toString('base64')),
  // RFC 8463 §4.2: the raw 32-byte key, not its SubjectPublicKeyInfo.
  [dkimRecordName('txm202611e', DOMAIN)]: dkimRecordValue(
    spki(ed.publicKey).subarray(-32).toString('base64'),
    'ed25519-sha256',
  ),
};
const rsaOnly: SigningKey = { domain: DOMAIN, selector: 'txm202611', privateKey: rsa.privateKey };
const both: SigningKey = { ...rsaOnly, beside: [{ selector: 'txm202611e', privateKey: ed.privateKey }] };

const message = (extra: Partial<OutgoingMessage> = {}): OutgoingMessage => ({
  id: '0190a0b0-0000-7000-8000-000000000001',
  fromName: 'Acme',
  fromEmail: 'noreply@acme.example',
  toName: 'Jäne Dœ',
  toEmail: 'jane@recipient.example',
  subject: 'Your   code\tis 1234',
  html: '<p>Code <b>1234</b></p>   \n\n\n',
  createdAt: Date.UTC(2026, 10, 24, 12),
  feedbackId: 'acct:acme.example:txmail',
  ...extra,
});

const signed = async (key: SigningKey, extra?: Partial<OutgoingMessage>) =>
  signMessage(await composeMessage(message(extra), 'mta.txmail.test'), key, SIGNED_AT);

/** The message's DKIM-Signature fields, unfolded, as tag → value maps. */
function signatures(raw: Buffer): Map<string, string>[] {
  const head = raw
    .toString('latin1')
    .split('\r\n\r\n')[0]!
    .replace(/\r\n[ \t]/g, ' ');
  return head
    .split('\r\n')
    .filter((l) => /^DKIM-Signature:/i.test(l))
    .map(
      (l) =>
        new Map(
          l
            .slice(l.indexOf(':') + 1)
            .split(';')
            .map((t) => t.trim())
            .filter(Boolean)
            .map((t) => [t.slice(0, t.indexOf('=')), t.slice(t.indexOf('=') + 1).replace(/\s+/g, '')]),
        ),
    );
}

/** Inserts a header field right after the signatures (where a forger's addition would go). */
function withHeader(raw: Buffer, field: string): Buffer {
  const s = raw.toString('latin1');
  const at = s.search(/\r\n(?!DKIM-Signature:)(?![ \t])[A-Za-z-]+:/) + 2;
  return Buffer.from(s.slice(0, at) + field + '\r\n' + s.slice(at), 'latin1');
}

const allVerifiers = async (raw: Buffer): Promise<Record<string, Verdict[]>> => ({
  dkimpy: await dkimpyVerify(raw, records),
  opendkim: await opendkimVerify(raw, records),
  mailauth: await mailauthVerify(raw, records),
});

describe('DKIM signing', () => {
  it('signs with RSA: dkimpy, OpenDKIM and mailauth verify it', async () => {
    const raw = await signed(rsaOnly);
    for (const [verifier, verdicts] of Object.entries(await allVerifiers(raw))) {
      expect(verdicts, verifier).toEqual([
        { selector: 'txm202611', algorithm: 'rsa-sha256', result: 'pass' },
      ]);
    }
  });

  it('signs with RSA and Ed25519 beside it, one body hash: both verify in dkimpy, OpenDKIM and mailauth', async () => {
    const raw = await signed(both);
    const [first, second] = signatures(raw);
    expect(first!.get('a')).toBe('rsa-sha256');
    expect(second!.get('a')).toBe('ed25519-sha256');
    expect(second!.get('bh')).toBe(first!.get('bh'));
    for (const [verifier, verdicts] of Object.entries(await allVerifiers(raw))) {
      expect(verdicts.map((v) => `${v.algorithm} ${v.selector} ${v.result}`).sort(), verifier).toEqual([
        'ed25519-sha256 txm202611e pass',
        'rsa-sha256 txm202611 pass',
      ]);
    }
  });

  it('oversigns: h= lists each signed header once more than present, and carries t=', async () => {
    const raw = await signed(rsaOnly, { feedbackId: 'acct:acme.example:txmail' });
    const [sig] = signatures(raw);
    expect(sig!.get('t')).toBe(String(Math.floor(SIGNED_AT / 1000)));
    expect(sig!.get('c')).toBe('relaxed/relaxed');
    const h = sig!.get('h')!.toLowerCase().split(':');
    const count = (name: string) => h.filter((n) => n === name).length;
    for (const name of [
      'from',
      'to',
      'subject',
      'date',
      'message-id',
      'mime-version',
      'content-type',
      'feedback-id',
    ]) {
      expect(count(name), name).toBe(2);
    }
    // Absent headers are listed once: adding one breaks the signature.
    expect(count('reply-to')).toBe(1);
    expect(count('content-transfer-encoding')).toBe(1); // a multipart message has none at the top
    expect(count('list-unsubscribe')).toBe(0);
  });

  it('oversigns List-Unsubscribe and List-Unsubscribe-Post when the message has them', async () => {
    const composed = await composeMessage(message(), 'mta.txmail.test');
    const withList = Buffer.concat([
      Buffer.from(
        'List-Unsubscribe: <https://acme.example/u?t=1>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n',
      ),
      composed,
    ]);
    const raw = signMessage(withList, both, SIGNED_AT);
    const h = signatures(raw)[0]!.get('h')!.toLowerCase().split(':');
    expect(h.filter((n) => n === 'list-unsubscribe')).toHaveLength(2);
    expect(h.filter((n) => n === 'list-unsubscribe-post')).toHaveLength(2);
    expect((await dkimpyVerify(raw, records)).map((v) => v.result)).toEqual(['pass', 'pass']);
    const added = withHeader(raw, 'List-Unsubscribe: <mailto:evil@attacker.example>');
    expect((await dkimpyVerify(added, records)).map((v) => v.result)).toEqual(['fail', 'fail']);
  });

  it('breaks when a second From, Subject or a Reply-To is added, and not for an unsigned header', async () => {
    const raw = await signed(both);
    // The control: a header the signature does not cover leaves it valid.
    const unsigned = withHeader(raw, 'X-Relay-Note: scanned');
    expect((await dkimpyVerify(unsigned, records)).map((v) => v.result)).toEqual(['pass', 'pass']);
    for (const field of [
      'From: Acme Security <security@attacker.example>',
      'Subject: Urgent: confirm your password',
      'Reply-To: <collect@attacker.example>',
    ]) {
      const forged = withHeader(raw, field);
      expect(
        (await dkimpyVerify(forged, records)).map((v) => v.result),
        field,
      ).toEqual(['fail', 'fail']);
      expect(
        (await opendkimVerify(forged, records)).map((v) => v.result),
        field,
      ).toEqual(['fail', 'fail']);
      expect(
        (await mailauthVerify(forged, records)).map((v) => v.result),
        field,
      ).not.toContain('pass');
    }
  });

  it('canonicalizes relaxed: white space changed in transit still verifies, a changed word does not', async () => {
    // A hand-written message with white space to reduce in its headers and body, trailing empty lines.
    const raw = signMessage(
      Buffer.from(
        'From:  Acme \t<noreply@acme.example>\r\n' +
          'To: jane@recipient.example\r\n' +
          'Subject: a\r\n   folded\t subject \r\n' +
          'Date: Tue, 24 Nov 2026 12:00:00 +0000\r\n' +
          'Message-ID: <x@mta.txmail.test>\r\n' +
          '\r\n' +
          'Hello  \t world   \r\n\t indented line\r\n\r\n\r\n',
        'latin1',
      ),
      both,
      SIGNED_AT,
    );
    expect((await dkimpyVerify(raw, records)).map((v) => v.result)).toEqual(['pass', 'pass']);
    expect((await opendkimVerify(raw, records)).map((v) => v.result)).toEqual(['pass', 'pass']);
    const s = raw.toString('latin1');
    const respaced = Buffer.from(
      s
        .replace('Subject: a\r\n   folded\t subject ', 'Subject:   a folded subject')
        .replace('Hello  \t world   \r\n', 'Hello world\r\n')
        .replace(/\r\n$/, '\r\n\r\n\r\n'),
      'latin1',
    );
    expect(respaced.equals(raw)).toBe(false);
    expect((await dkimpyVerify(respaced, records)).map((v) => v.result)).toEqual(['pass', 'pass']);
    const changed = Buffer.from(s.replace('Hello', 'Hallo'), 'latin1');
    expect((await dkimpyVerify(changed, records)).map((v) => v.result)).toEqual(['fail', 'fail']);
  });

  it('hashes an empty body and a body without a final line break as RFC 6376 says', () => {
    // §3.4.4: the empty body hashes as the empty string; a last line without CRLF gets one.
    expect(bodyHash(Buffer.alloc(0))).toBe('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
    expect(bodyHash(Buffer.from('\r\n\r\n'))).toBe('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
    expect(bodyHash(Buffer.from('a b  '))).toBe(bodyHash(Buffer.from('a  b\r\n\r\n')));
  });

  it('hashes every body as the RFC 6376 §3.4.4 rules written as regular expressions do', () => {
    // The rules as the RFC states them (quadratic on long runs of white space, fine on these sizes).
    const reference = (body: Buffer) => {
      const s = body
        .toString('latin1')
        .replace(/[ \t]+(\r\n|$)/g, '$1')
        .replace(/[ \t]+/g, ' ')
        .replace(/(\r\n)*$/, '');
      return createHash('sha256')
        .update(s === '' ? '' : `${s}\r\n`, 'latin1')
        .digest('base64');
    };
    const piece = fc.constantFrom(
      ' ',
      '\t',
      '  ',
      '\r\n',
      '\r',
      '\n',
      ' \r\n',
      '\t\r\n',
      'a',
      'b c',
      '\u00e9',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const body = Buffer.from(pieces.join(''), 'latin1');
        expect(bodyHash(body)).toBe(reference(body));
      }),
      { numRuns: 2000 },
    );
  });

  it('hashes a body and canonicalizes a header in time linear in runs of white space', async () => {
    const sizes = [1 << 10, 4 << 10, 16 << 10, 64 << 10];
    for (const ws of [' ', '\t']) {
      // A run before a last character on the line, before CRLF, and at the end of the body.
      await measureGrowth(bodyHash, (size) => Buffer.from(`x${ws.repeat(size)}y\r\n`, 'latin1'), { sizes });
      await measureGrowth(bodyHash, (size) => Buffer.from(`x${ws.repeat(size)}\r\ny`, 'latin1'), { sizes });
      await measureGrowth(relaxedHeader, (size) => `X-A${ws.repeat(size)}b: v`, { sizes });
    }
    await assertLinearForShapes(bodyHash, (s) => Buffer.from(s, 'latin1'), {
      numRuns: 6,
      sizes: [4 << 10, 16 << 10, 64 << 10, 256 << 10],
    });
  });

  it('folds the signature fields at 78 characters', async () => {
    const raw = await signed(both);
    const lines = raw.toString('latin1').split('\r\n\r\n')[0]!.split('\r\n');
    const sigLines: string[] = [];
    let inSig = false;
    for (const l of lines) {
      if (/^DKIM-Signature:/.test(l)) inSig = true;
      else if (!/^[ \t]/.test(l)) inSig = false;
      if (inSig) sigLines.push(l);
    }
    expect(sigLines.length).toBeGreaterThan(8);
    for (const l of sigLines) expect(l.length, l).toBeLessThanOrEqual(78);
  });

  it('returns the signed message in an ArrayBuffer of its own, which a build thread can transfer', async () => {
    // A small message: Buffer.concat would have placed it in Node's shared pool.
    const raw = signMessage(Buffer.from('Subject: s\r\n\r\nhi\r\n'), rsaOnly, SIGNED_AT);
    expect(raw.byteOffset).toBe(0);
    expect(raw.buffer.byteLength).toBe(raw.byteLength);
    expect(raw.toString('latin1')).toMatch(/^DKIM-Signature: [^]*\r\nSubject: s\r\n\r\nhi\r\n$/);
  });

  it('refuses a key that cannot sign DKIM rather than sending mail unsigned', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const composed = await composeMessage(message(), 'mta.txmail.test');
    expect(() => signMessage(composed, { domain: DOMAIN, selector: 's', privateKey: ec.privateKey })).toThrow(
      /cannot sign DKIM/,
    );
  });
});
