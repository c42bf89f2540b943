// The threaded message builder produces exactly what building on the event loop produces: the same
// composed message with a DKIM signature that verifies. Its threads run the sources beside it
// (start-thread.ts), not the last build.
import { gunzipSync } from 'node:zlib';
import { generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { afterAll, describe, expect, it } from 'vitest';
import { buildMessage, type BuildRequest } from '../src/delivery/build-message.js';
import { BUILDS_PER_THREAD, ThreadedMessageBuilder } from '../src/delivery/message-builder.js';
import { CRASH_SUBJECT } from './helpers/crashing-build-thread.js';
import { mailauthVerify } from './helpers/dkim-verifiers.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKeyB64 = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

function request(i: number): BuildRequest {
  return {
    message: {
      id: `0190a0b0-0000-7000-8000-${String(i).padStart(12, '0')}`,
      fromName: 'Acme',
      fromEmail: 'noreply@acme.example',
      toName: 'Jäne',
      toEmail: 'jane@recipient.example',
      subject: `Your code ${i}`,
      html: `<p>Code <b>${i}</b></p>`,
      createdAt: Date.UTC(2026, 10, 22, 12, 0, 0),
    },
    hostname: 'mta.txmail.test',
    key: { domain: 'acme.example', selector: 'txm202611', privateKey },
  };
}

function unsigned(raw: Buffer): string {
  return raw
    .toString('latin1')
    .replace(/^DKIM-Signature:.*\r\n(?:[ \t].*\r\n)*/, '')
    .replace(/_NmP-[0-9a-f]+-Part/g, '_NmP-boundary-Part');
}

async function verifies(raw: Buffer): Promise<string> {
  const result = await dkimVerify(raw, {
    resolver: async (name: string, type: string) => {
      if (type === 'TXT' && name === 'txm202611._domainkey.acme.example') {
        return [[`v=DKIM1; k=rsa; p=${publicKeyB64}`]];
      }
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    },
  } as Parameters<typeof dkimVerify>[1]);
  return (result.results[0] as { status: { result: string } }).status.result;
}

describe('ThreadedMessageBuilder', () => {
  const builder = new ThreadedMessageBuilder(2);
  afterAll(() => builder.close());

  it('builds the same message as the event loop, signed', async () => {
    const inline = await buildMessage(request(1));
    const { bytes: threaded, gzipped } = await builder.build(request(1));
    expect(Buffer.isBuffer(threaded)).toBe(true);
    // Equal but for the random MIME boundary, and so the signature over it.
    expect(unsigned(threaded)).toBe(unsigned(inline));
    expect(threaded.toString('latin1')).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed;/);
    expect(await verifies(threaded)).toBe('pass');
    expect(gzipped).toBeUndefined(); // not asked for
  });

  it('compresses the bytes for keeping on the thread when asked, up to the size asked', async () => {
    const { bytes, gzipped } = await builder.build({ ...request(3), keepUpTo: 1024 * 1024 });
    expect(gunzipSync(gzipped!).equals(bytes)).toBe(true);
    const small = await builder.build({ ...request(3), keepUpTo: 100 });
    expect(small.gzipped).toBeUndefined();
  });

  it('signs on the threads with an Ed25519 key beside the RSA key (the keys cross to the thread)', async () => {
    const ed = generateKeyPairSync('ed25519');
    const req = request(2);
    req.key = { ...req.key!, beside: [{ selector: 'txm202611e', privateKey: ed.privateKey }] };
    const { bytes: raw } = await builder.build(req);
    const edRecord = `v=DKIM1; k=ed25519; p=${ed.publicKey.export({ type: 'spki', format: 'der' }).subarray(-32).toString('base64')}`;
    const verdicts = await mailauthVerify(raw, {
      'txm202611._domainkey.acme.example': `v=DKIM1; k=rsa; p=${publicKeyB64}`,
      'txm202611e._domainkey.acme.example': edRecord,
    });
    expect(verdicts.map((v) => `${v.algorithm} ${v.result}`)).toEqual([
      'rsa-sha256 pass',
      'ed25519-sha256 pass',
    ]);
  });

  it('builds many messages in parallel, each for its own request', async () => {
    const built = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => (await builder.build(request(i))).bytes),
    );
    for (const [i, raw] of built.entries()) {
      expect(raw.toString('latin1')).toContain(`Subject: Your code ${i}\r\n`);
    }
    expect(await verifies(built[17]!)).toBe('pass');
  });

  it('hands each thread up to BUILDS_PER_THREAD builds at once; only the rest wait in the pool', async () => {
    const extra = 5;
    const all = Array.from({ length: 2 * BUILDS_PER_THREAD + extra }, (_, i) => builder.build(request(i)));
    // Each thread holds BUILDS_PER_THREAD; only the rest wait in the pool.
    expect(builder.queued).toBe(extra);
    await Promise.all(all);
    expect(builder.queued).toBe(0);
  });

  it('builds again, alone, what a thread that died held: only the build that killed it fails', async () => {
    const crashing = new ThreadedMessageBuilder(
      1,
      new URL('./helpers/crashing-build-thread.ts', import.meta.url),
    );
    try {
      const crasher = { ...request(99), message: { ...request(99).message, subject: CRASH_SUBJECT } };
      const requests = Array.from({ length: BUILDS_PER_THREAD }, (_, i) => (i === 3 ? crasher : request(i)));
      const results = await Promise.allSettled(requests.map((r) => crashing.build(r)));
      expect(results.map((r) => r.status)).toEqual(
        requests.map((_, i) => (i === 3 ? 'rejected' : 'fulfilled')),
      );
      const built = results[5] as PromiseFulfilledResult<{ bytes: Buffer }>;
      expect(built.value.bytes.toString('latin1')).toContain('Subject: Your code 5\r\n');
      expect(await verifies(built.value.bytes)).toBe('pass');
    } finally {
      await crashing.close();
    }
  });
});
