// Our own DKIM signature over a header block, checked without the body (src/dkim/verify-headers.ts): the
// proof a feedback report needs when it names a message by its Message-ID alone.
import { createPrivateKey } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateDkimKey, generateEd25519DkimKey, type DkimKeyPair } from '../../src/dkim/keys.js';
import { signMessage } from '../../src/dkim/sign.js';
import { verifyOurHeaderSignature, type OurKeyLookup } from '../../src/dkim/verify-headers.js';
import { measureGrowth } from '../helpers/linear-time.js';

const message = (id: string, extra = '') =>
  Buffer.from(
    `${extra}From: Acme <noreply@acme.example>\r\nTo: jane@recipient.example\r\nSubject: Your code\r\n` +
      `Date: Mon, 30 Nov 2026 05:00:00 +0000\r\nMessage-ID: <${id}@mta.txmail.test>\r\nMIME-Version: 1.0\r\n` +
      `Content-Type: text/plain; charset=utf-8\r\n\r\nYour code is 123456.\r\n`,
  );
const head = (raw: Buffer) => raw.toString('latin1', 0, raw.indexOf('\r\n\r\n'));

describe('verifyOurHeaderSignature', () => {
  let rsa: DkimKeyPair;
  let ed: DkimKeyPair;
  let lookup: OurKeyLookup;
  const id = '019ab000-0000-7000-8000-000000000001';
  beforeAll(async () => {
    rsa = await generateDkimKey();
    ed = await generateEd25519DkimKey();
    lookup = async (domain, selector) => {
      if (domain !== 'acme.example') return undefined;
      if (selector === 'txm1') return { publicKey: rsa.publicKey, algorithm: 'rsa-sha256', accountId: 'a1' };
      if (selector === 'txe1')
        return { publicKey: ed.publicKey, algorithm: 'ed25519-sha256', accountId: 'a1' };
      return undefined;
    };
  });
  const signed = (raw: Buffer) =>
    signMessage(raw, {
      domain: 'acme.example',
      selector: 'txm1',
      privateKey: createPrivateKey(rsa.privateKeyPem),
      beside: [{ selector: 'txe1', privateKey: createPrivateKey(ed.privateKeyPem) }],
    });

  it('finds the Message-ID our signature covers, the body not needed, headers added above it ignored', async () => {
    const block =
      'Return-Path: <b+x@send.acme.example>\r\nReceived: from x by y\r\n' + head(signed(message(id)));
    expect(await verifyOurHeaderSignature(block, lookup)).toEqual({
      messageId: `${id}@mta.txmail.test`,
      accountId: 'a1',
    });
    // Refolded and with LF line ends, as a report may carry it.
    expect(await verifyOurHeaderSignature(block.replace(/\r\n/g, '\n'), lookup)).toBeDefined();
  });

  it('verifies the Ed25519 signature alone', async () => {
    const block = head(signed(message(id)));
    const edOnly = block.replace(/DKIM-Signature: v=1; a=rsa-sha256[^]*?(?=DKIM-Signature: )/, '');
    expect(edOnly).not.toContain('a=rsa-sha256');
    expect((await verifyOurHeaderSignature(edOnly, lookup))?.messageId).toBe(`${id}@mta.txmail.test`);
  });

  it('refuses a changed Message-ID, and one added above the signed one (ours are oversigned)', async () => {
    const block = head(signed(message(id)));
    const other = '019ab000-0000-7000-8000-0000000000ff';
    expect(await verifyOurHeaderSignature(block.replace(id, other), lookup)).toBeUndefined();
    const added = `Message-ID: <${other}@mta.txmail.test>\r\n${block}`;
    expect(await verifyOurHeaderSignature(added, lookup)).toBeUndefined();
  });

  it('refuses a signature by a key that is not ours, and a block without one', async () => {
    const block = head(signed(message(id)));
    expect(
      await verifyOurHeaderSignature(block.replaceAll('d=acme.example', 'd=evil.example'), lookup),
    ).toBeUndefined();
    expect(await verifyOurHeaderSignature(head(message(id)), lookup)).toBeUndefined();
    expect(
      await verifyOurHeaderSignature('DKIM-Signature: v=1; d=acme.example; s=txm1; b=;;;\r\n', lookup),
    ).toBeUndefined();
  });

  it('costs time linear in a crafted block: thousands of names in h=, thousands of fields (anyone may write to fbl@)', async () => {
    // One of our real d= and s= pairs (public in DNS), an h= listing names of fields that are there.
    const crafted = (bytes: number) => {
      const n = Math.floor(bytes / 8);
      return (
        `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=acme.example; s=txm1; ` +
        `h=${Array.from({ length: n }, () => 'a').join(':')}:message-id; bh=x; b=AAAA\r\n` +
        'a: x\r\n'.repeat(n) +
        `Message-ID: <${id}@mta.txmail.test>\r\n`
      );
    };
    expect(await verifyOurHeaderSignature(crafted(64 << 10), lookup)).toBeUndefined();
    await measureGrowth((block: string) => verifyOurHeaderSignature(block, lookup), crafted, {
      sizes: [4 << 10, 16 << 10, 64 << 10, 256 << 10],
    });
  });
});
