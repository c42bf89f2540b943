// The pure decisions of delivery, table-driven.
import { describe, expect, it } from 'vitest';
import { classifyReply } from '../../src/delivery/classify-reply.js';
import { decideNext } from '../../src/delivery/outcome.js';
import { DEFAULT_RETRY, nextAttemptAt } from '../../src/delivery/retry-schedule.js';
import { Verp } from '../../src/delivery/verp.js';
import type { AttemptResult } from '../../src/delivery/transport.js';
import { senderDomainRefusal } from '../../src/delivery/sender-domain-refusal.js';

const MIN = 60_000;

describe('classifyReply', () => {
  it.each([
    [250, '250 2.0.0 OK queued', 'delivered', '2.0.0', false],
    [250, '250 OK', 'delivered', '2.0.0', false],
    [550, '550 5.1.1 <x@y>: Recipient address rejected', 'bounced', '5.1.1', false],
    // The words name the failure, as they do in a bounce report (bounce/reply-intelligence.ts).
    [550, '550 no such user', 'bounced', '5.1.1', false],
    [554, '554 5.7.1 Message rejected as spam', 'bounced', '5.7.1', false],
    [552, '552 5.2.2 Mailbox full', 'bounced', '5.2.2', false],
    [451, '451 4.3.0 Temporary failure', 'deferred', '4.3.0', false],
    [450, '450 4.2.1 Mailbox busy', 'deferred', '4.2.1', false],
    [421, '421 4.7.0 Try again later', 'deferred', '4.7.0', true],
    [421, '421 Service not available', 'deferred', '4.4.2', true],
    [451, '451 4.7.28 Rate limited due to IP reputation', 'deferred', '4.7.28', true],
    [452, '452 4.5.3 Too many recipients', 'deferred', '4.5.3', true],
    [450, '450 4.2.0 Throttled, slow down', 'deferred', '4.2.0', true],
    [550, '550 4.1.1 confused server', 'bounced', '5.0.0', false],
    // Outside RFC 5321's classes: a protocol fault, retried, its enhanced code 4.5.0 (never "9.0.0").
    [999, '999 what', 'deferred', '4.5.0', false],
    [600, '600 hello', 'deferred', '4.5.0', false],
    [354, '354 go ahead', 'deferred', '4.5.0', false],
  ])('%i %j → %s %s', (code, text, outcome, enhanced, throttled) => {
    expect(classifyReply(code, text)).toMatchObject({ outcome, enhanced, throttled });
  });

  it.each([
    [250, '250 2.0.0 Ok: queued, but the mailbox is nearly full', '2.0.0'],
    [250, '250 2.6.0 Message accepted; try again later if it bounces', '2.6.0'],
    [250, '250 OK spamhaus listed sender, accepted anyway', '2.0.0'],
    [251, '251 2.1.5 user not local; will forward', '2.1.5'],
  ])('a success is delivered whatever its words say: %i %j', (code, text, enhanced) => {
    expect(classifyReply(code, text)).toEqual({
      outcome: 'delivered',
      enhanced,
      throttled: false,
      greylisted: false,
      category: 'undetermined',
      reason: '',
      type: 'undetermined',
      senderBlock: false,
    });
  });
});

describe('nextAttemptAt', () => {
  const created = 0;
  it.each([
    [1, 5 * MIN],
    [2, 10 * MIN],
    [3, 20 * MIN],
    [4, 40 * MIN],
    [6, 160 * MIN],
    [7, 240 * MIN],
    [12, 240 * MIN],
  ])('after %i failed attempts waits %i ms (no jitter at random 0.5)', (attempts, delay) => {
    expect(nextAttemptAt(attempts, created, 1000, 0.5)).toBe(1000 + delay);
  });

  it('stays within ±15 % jitter', () => {
    expect(nextAttemptAt(1, 0, 0, 0)).toBe(Math.round(5 * MIN * 0.85));
    expect(nextAttemptAt(1, 0, 0, 0.999999)).toBeCloseTo(5 * MIN * 1.15, -2);
  });

  it('gives up once the next attempt would be past the maximum age', () => {
    const now = DEFAULT_RETRY.maxAgeMs - 60 * MIN;
    expect(nextAttemptAt(10, 0, now, 0.5)).toBeNull();
    expect(nextAttemptAt(10, 0, now - 4 * 3600_000, 0.5)).not.toBeNull();
  });
});

describe('decideNext', () => {
  const result = (outcome: AttemptResult['outcome']): AttemptResult => ({
    outcome,
    smtpCode: outcome === 'delivered' ? 250 : outcome === 'bounced' ? 550 : 451,
    enhanced: outcome === 'delivered' ? '2.0.0' : outcome === 'bounced' ? '5.1.1' : '4.3.0',
    reply: 'reply',
    remoteHost: 'mx.example',
    remoteIp: '192.0.2.1',
    tls: true,
    throttled: false,
    greylisted: false,
    category: outcome === 'delivered' ? null : outcome === 'bounced' ? 'unknown_recipient' : 'system_error',
    reason: '',
  });

  it('records delivery', () => {
    const n = decideNext({ status: 'queued', attempts: 0, createdAt: 0 }, result('delivered'), 10, 0.5);
    expect(n).toMatchObject({
      status: 'delivered',
      nextAttemptAt: null,
      events: [{ type: 'email.delivered' }],
    });
  });

  it('records a bounce as final', () => {
    const n = decideNext({ status: 'deferred', attempts: 3, createdAt: 0 }, result('bounced'), 10, 0.5);
    expect(n).toMatchObject({ status: 'bounced', nextAttemptAt: null, events: [{ type: 'email.bounced' }] });
  });

  it('emits delivery_delayed on the first deferral only', () => {
    const first = decideNext({ status: 'queued', attempts: 0, createdAt: 0 }, result('deferred'), 0, 0.5);
    expect(first).toMatchObject({
      status: 'deferred',
      nextAttemptAt: 5 * MIN,
      events: [{ type: 'email.delivery_delayed' }],
    });
    const second = decideNext(
      { status: 'deferred', attempts: 1, createdAt: 0 },
      result('deferred'),
      5 * MIN,
      0.5,
    );
    expect(second).toMatchObject({ status: 'deferred', nextAttemptAt: 15 * MIN, events: [] });
  });

  it('fails a message that stays undeliverable past the maximum age', () => {
    const n = decideNext(
      { status: 'deferred', attempts: 15, createdAt: 0 },
      result('deferred'),
      DEFAULT_RETRY.maxAgeMs,
      0.5,
    );
    expect(n).toMatchObject({ status: 'failed', nextAttemptAt: null, events: [{ type: 'email.failed' }] });
  });
});

describe('VERP addresses', () => {
  const verp = new Verp(Buffer.alloc(32, 7));
  const id = '01a2023f-f246-760c-913b-9921094bcf57';

  it('round-trips a message id, also when an MTA upper-cases the local part', () => {
    const address = verp.address(id, 'send.acme.example');
    expect(address).toMatch(/^b\+[0-9a-f]{48}@send\.acme\.example$/);
    const local = address.split('@')[0]!;
    expect(verp.messageId(local)).toBe(id);
    expect(verp.messageId(local.toUpperCase())).toBe(id);
  });

  it('refuses forged tags and foreign addresses', () => {
    const local = verp.address(id, 'x.example').split('@')[0]!;
    const forged = local.slice(0, -1) + (local.endsWith('0') ? '1' : '0');
    expect(verp.messageId(forged)).toBeUndefined();
    expect(verp.messageId('postmaster')).toBeUndefined();
    expect(new Verp(Buffer.alloc(32, 8)).messageId(local)).toBeUndefined();
  });
});

describe('senderDomainRefusal', () => {
  it.each([
    [undefined, 'sender domain acme.example was removed from this account; mail from it is no longer sent'],
    [
      'failed',
      'sender domain acme.example is no longer verified (its DNS records failed verification); verify it again to send from it',
    ],
    ['pending', 'sender domain acme.example is not verified; verify it to send from it'],
    ['verified', 'sender domain acme.example has no DKIM key to sign with; verify it to get one'],
    ['temporary_failure', 'sender domain acme.example has no DKIM key to sign with; verify it to get one'],
  ] as const)('explains a domain in status %s', (status, reason) => {
    expect(senderDomainRefusal('acme.example', status)).toBe(reason);
  });
});
