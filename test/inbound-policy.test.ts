import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import type { InboundRepo } from '../src/db/inbound-repo.js';
import { Verp } from '../src/delivery/verp.js';
import { ConnectionLimiter } from '../src/inbound/connection-limiter.js';
import { InboundProcessor } from '../src/inbound/inbound-processor.js';
import { InboundReceiver } from '../src/inbound/receiver.js';
import { checkRecipient } from '../src/inbound/recipient-policy.js';
import { smtpSend } from './helpers/smtp-client.js';

const verp = new Verp(Buffer.alloc(32, 7));
const id = '019ab000-0000-7000-8000-000000000001';
const deps = {
  verp,
  returnPathLabel: 'send',
  testDomain: 'test.txmail.example',
  isCustomerDomain: async (name: string) => name === 'acme.example',
};

describe('which recipients the receiver accepts', () => {
  const valid = verp.address(id, 'send.acme.example');
  const local = valid.split('@')[0]!;

  it.each([
    [valid, { accept: true, kind: 'verp', messageId: id }],
    [valid.toUpperCase(), { accept: true, kind: 'verp', messageId: id }],
    [`${local}@test.txmail.example`, { accept: true, kind: 'verp', messageId: id }],
    [`${local}@send.acme.example.`, { accept: true, kind: 'verp', messageId: id }],
    ['fbl@send.acme.example', { accept: true, kind: 'fbl' }],
    ['FBL@test.txmail.example', { accept: true, kind: 'fbl' }],
    [`${local}@acme.example`, { accept: false }],
    [`${local}@send.other.example`, { accept: false }],
    [`${local}@mail.acme.example`, { accept: false }],
    ['fbl@acme.example', { accept: false }],
    ['postmaster@send.acme.example', { accept: false }],
    ['b+1234@send.acme.example', { accept: false }],
    ['@send.acme.example', { accept: false }],
    ['no-at-sign', { accept: false }],
    ['jane@gmail.example', { accept: false }],
  ])('%s → %o', async (address, verdict) => {
    expect(await checkRecipient(address, deps)).toEqual(verdict);
  });

  it('refuses every single-character change of a valid tag', async () => {
    const at = valid.indexOf('@');
    for (let i = 2 + 32; i < at; i++) {
      const c = valid[i] === 'f' ? 'e' : 'f';
      const forged = valid.slice(0, i) + c + valid.slice(i + 1);
      expect(await checkRecipient(forged, deps), forged).toEqual({ accept: false });
    }
  });
});

describe('the connection limit per client IP', () => {
  it('admits the limit per minute per address, then refuses until the next minute', () => {
    const clock = new ManualClock();
    const limiter = new ConnectionLimiter(3, () => clock.now());
    expect([1, 2, 3, 4].map(() => limiter.admit('192.0.2.1'))).toEqual([true, true, true, false]);
    expect(limiter.admit('192.0.2.2')).toBe(true);
    clock.advance(60_000);
    expect(limiter.admit('192.0.2.1')).toBe(true);
  });

  it('admits everyone when the limit is 0', () => {
    const limiter = new ConnectionLimiter(0, () => 0);
    for (let i = 0; i < 1000; i++) expect(limiter.admit('192.0.2.1')).toBe(true);
  });
});

describe('the receiver under abuse', () => {
  it('answers 421 to a client over its connections per minute', async () => {
    const logger = pino({ level: 'silent' });
    // Nothing here reaches the database: every recipient is refused before a look-up is needed.
    const repo = { isCustomerDomain: async () => false } as unknown as InboundRepo;
    const clock = new ManualClock();
    const receiver = await new InboundReceiver(
      {
        host: '127.0.0.1',
        port: 0,
        hostname: 'mx.test',
        returnPathLabel: 'send',
        testDomain: 'test.txmail.example',
        maxSize: 1024 * 1024,
        connectionsPerMinute: 2,
      },
      {
        repo,
        processor: new InboundProcessor({ repo, verp, clock, logger, hostname: 'mx.test' }),
        verp,
        clock,
        logger,
      },
    ).listen();
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) {
        codes.push((await smtpSend(receiver.port, { from: '', to: ['x@send.nowhere.example'] }, 'x')).code);
      }
      expect(codes).toEqual([550, 550, 421]);
      clock.advance(60_000);
      expect((await smtpSend(receiver.port, { from: '', to: ['x@send.nowhere.example'] }, 'x')).code).toBe(
        550,
      );
    } finally {
      await receiver.close();
    }
  });
});
