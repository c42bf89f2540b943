import pino from 'pino';
import { receiverOptions } from './helpers/receiver-options.js';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import type { InboundRepo } from '../src/db/inbound-repo.js';
import { Verp } from '../src/delivery/verp.js';
import { ConnectionLimiter } from '../src/inbound/connection-limiter.js';
import { InboundProcessor } from '../src/inbound/inbound-processor.js';
import { InboundReceiver } from '../src/inbound/receiver.js';
import type { ReportParser } from '../src/inbound/report-parser.js';
import { checkRecipient } from '../src/inbound/recipient-policy.js';
import { SessionLimiter } from '../src/session-limiter.js';
import { trustedNetworks } from '../src/trusted-networks.js';
import { smtpSend } from './helpers/smtp-client.js';
import { SmtpSession } from './helpers/smtp-session.js';

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
    // RFC 5321 §4.5.1: postmaster at every domain served, and with no domain at all.
    ['postmaster@send.acme.example', { accept: true, kind: 'fbl' }],
    ['PostMaster@test.txmail.example', { accept: true, kind: 'fbl' }],
    ['Postmaster', { accept: true, kind: 'fbl' }],
    ['postmaster@acme.example', { accept: false }],
    ['postmaster@send.other.example', { accept: false }],
    ['abuse@send.acme.example', { accept: false }],
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

describe('open sessions per client', () => {
  it('holds the limit per client, gives slots back, and forgets a client with none', () => {
    const limiter = new SessionLimiter(2);
    expect([1, 2, 3].map(() => limiter.take('192.0.2.1'))).toEqual([true, true, false]);
    expect(limiter.take('192.0.2.2')).toBe(true);
    limiter.release('192.0.2.1');
    expect(limiter.take('192.0.2.1')).toBe(true);
    limiter.release('192.0.2.1');
    limiter.release('192.0.2.1');
    expect(limiter.held('192.0.2.1')).toBe(0);
    expect(limiter.take('192.0.2.1')).toBe(true);
  });

  it("shrinks each client's share as the pool fills, and keeps one for a newcomer until it is full", () => {
    const limiter = new SessionLimiter(10, 100);
    // Each address takes all it is let.
    const taken: number[] = [];
    for (let c = 0; !limiter.full; c++) {
      let n = 0;
      while (limiter.take(`192.0.2.${c}`)) n++;
      taken.push(n);
    }
    // 100 free: 10 each; 50 free: 5; under 10 free: 1.
    expect(taken.slice(0, 5)).toEqual([10, 9, 8, 7, 6]);
    expect(taken.at(-1)).toBe(1);
    expect(taken.reduce((a, b) => a + b, 0)).toBe(100);
    expect(limiter.take('198.51.100.1')).toBe(false);
    limiter.release('192.0.2.0');
    expect(limiter.full).toBe(false);
    expect(limiter.take('198.51.100.1')).toBe(true);
    // A release of a client holding nothing frees nothing.
    limiter.release('203.0.113.1');
    expect(limiter.full).toBe(true);
  });

  it('admits any number when the limit is 0', () => {
    const limiter = new SessionLimiter(0);
    for (let i = 0; i < 1000; i++) expect(limiter.take('192.0.2.1')).toBe(true);
  });
});

describe('trusted networks', () => {
  it.each([
    [['loopback'], '127.0.0.1', true],
    [['loopback'], '127.3.2.1', true],
    [['loopback'], '::1', true],
    [['loopback'], '::ffff:127.0.0.1', true],
    [['loopback'], '192.0.2.1', false],
    [['loopback'], '::2', false],
    [[], '127.0.0.1', false],
    [['uniquelocal'], '10.1.2.3', true],
    [['uniquelocal'], '172.20.0.1', true],
    [['uniquelocal'], '192.168.7.7', true],
    [['uniquelocal'], 'fd00::7', true],
    [['uniquelocal'], '172.32.0.1', false],
    [['linklocal'], '169.254.1.1', true],
    [['linklocal'], 'fe80::1', true],
    [['192.0.2.0/24', '2001:db8::/32'], '192.0.2.200', true],
    [['192.0.2.0/24', '2001:db8::/32'], '192.0.3.1', false],
    [['192.0.2.0/24', '2001:db8::/32'], '2001:db8:5::1', true],
    [['192.0.2.7'], '192.0.2.7', true],
    [['192.0.2.7'], '::ffff:192.0.2.7', true],
    [['::ffff:192.0.2.7'], '192.0.2.7', true],
    [['192.0.2.7'], '192.0.2.8', false],
    [['2001:db8::1'], '2001:db8::1', true],
    [['loopback'], 'not an address', false],
  ])('%j trusts %s: %s', (entries, address, trusted) => {
    expect(trustedNetworks(entries)(address)).toBe(trusted);
  });
});

const unusedParser: ReportParser = {
  parse: () => Promise.reject(new Error('not used')),
  close: async () => undefined,
};

describe('the receiver under abuse', () => {
  it('answers 421 to a client over its connections per minute, never to a trusted one', async () => {
    const logger = pino({ level: 'silent' });
    // Nothing here reaches the database: every recipient is refused before a look-up is needed.
    const repo = { isCustomerDomain: async () => false } as unknown as InboundRepo;
    const clock = new ManualClock();
    const receiver = await new InboundReceiver(
      receiverOptions({
        connectionsPerMinute: 2,
        // Not the test's own address (127.0.0.1): loopback is trusted by default.
        trustedNetworks: ['127.0.0.9'],
      }),
      {
        repo,
        // Nothing is stored, so nothing is parsed.
        processor: new InboundProcessor({
          repo,
          parser: unusedParser,
          verp,
          clock,
          logger,
          hostname: 'mx.test',
        }),
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
      for (let i = 0; i < 4; i++) {
        const trusted = await SmtpSession.open(receiver.port, '127.0.0.9');
        expect(trusted.greeting).toMatch(/^220 /);
        await trusted.quit();
      }
      // RFC 5321 §4.5.1: "RCPT TO:<Postmaster>" with no domain is taken, whatever the domains served.
      const session = await SmtpSession.open(receiver.port, '127.0.0.9');
      expect(await session.command('EHLO client.example')).toMatch(/^250[ -]/);
      expect(await session.command('MAIL FROM:<>')).toMatch(/^250 /);
      expect(await session.command('RCPT TO:<Postmaster>')).toMatch(/^250 /);
      expect(await session.command('RCPT TO:<postmaster@send.nowhere.example>')).toMatch(/^550 5\.1\.1 /);
      await session.quit();
    } finally {
      await receiver.close();
    }
  });
});
