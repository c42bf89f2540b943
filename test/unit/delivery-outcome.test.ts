// The session's pure decisions about greylisting, categories and suppression (outcome.ts,
// retry-schedule.ts): the greylist's first retry as a property over every random draw, the category on
// each event the worker records, and suppression decided from the category.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BOUNCE_CATEGORIES, type BounceCategory } from '../../src/bounce/categories.js';
import {
  decideNext,
  expiredUnattempted,
  failedPermanently,
  type MessageProgress,
} from '../../src/delivery/outcome.js';
import {
  DEFAULT_RETRY,
  greylistRetryAt,
  lifetimeWords,
  messageDeadline,
  nextAttemptAt,
} from '../../src/delivery/retry-schedule.js';
import type { AttemptResult } from '../../src/delivery/transport.js';

const MIN = 60_000;
const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const fresh: MessageProgress = { status: 'queued', attempts: 0, createdAt: NOW - 2000 };

function attempt(over: Partial<AttemptResult>): AttemptResult {
  return {
    outcome: 'deferred',
    smtpCode: 450,
    enhanced: '4.7.1',
    reply: '450 4.7.1 <jane@example.org>: Recipient address rejected: Greylisted, please try again later',
    remoteHost: 'mx.example.org',
    remoteIp: '192.0.2.25',
    tls: true,
    throttled: false,
    greylisted: true,
    category: 'policy_rejected',
    reason: 'greylisted: the receiving server asks to try again later',
    ...over,
  };
}

/** Any draw of Math.random(): [0, 1). */
const random01 = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

describe('the first retry after a greylisting reply', () => {
  it('is never before 5 minutes and never past the schedule with the full upward jitter', () => {
    const { baseMs, jitter } = DEFAULT_RETRY;
    fc.assert(
      fc.property(random01, fc.integer({ min: 0, max: 3600_000 }), (random, age) => {
        const n = decideNext({ ...fresh, createdAt: NOW - age }, attempt({}), NOW, random);
        expect(n.status).toBe('deferred');
        expect(n.nextAttemptAt).toBeGreaterThanOrEqual(NOW + 5 * MIN);
        expect(n.nextAttemptAt).toBeLessThanOrEqual(NOW + baseMs * (1 + jitter));
      }),
      { numRuns: 2000 },
    );
  });

  it('holds at the ends of the draw, where the ordinary schedule goes below 5 minutes', () => {
    // The ordinary first retry can come at 4 min 15 s: the reason for the rule.
    expect(nextAttemptAt(1, NOW, NOW, 0)).toBe(NOW + 4.25 * MIN);
    expect(greylistRetryAt(1, NOW, NOW, 0)).toBe(NOW + 5 * MIN);
    expect(greylistRetryAt(1, NOW, NOW, 0.999999)).toBeLessThanOrEqual(NOW + 5.75 * MIN);
    expect(greylistRetryAt(1, NOW, NOW, 0.999999)).toBeGreaterThan(NOW + 5.74 * MIN);
  });

  it('keeps the schedule for the attempts after it: a later greylist or deferral waits as long as before', () => {
    fc.assert(
      fc.property(random01, fc.integer({ min: 2, max: 12 }), (random, attempts) => {
        const progress: MessageProgress = { status: 'deferred', attempts: attempts - 1, createdAt: NOW };
        const greylisted = decideNext(progress, attempt({}), NOW, random).nextAttemptAt!;
        const ordinary = decideNext(progress, attempt({ greylisted: false }), NOW, random).nextAttemptAt!;
        const delay = Math.min(DEFAULT_RETRY.capMs, DEFAULT_RETRY.baseMs * 2 ** (attempts - 1));
        // The same exponential schedule; only the jitter's direction differs.
        expect(greylisted - NOW).toBeGreaterThanOrEqual(delay);
        expect(greylisted - NOW).toBeLessThanOrEqual(Math.ceil(delay * (1 + DEFAULT_RETRY.jitter)));
        expect(Math.abs(ordinary - NOW - delay)).toBeLessThanOrEqual(delay * DEFAULT_RETRY.jitter + 1);
      }),
    );
  });

  it('still gives up past the maximum age', () => {
    const old: MessageProgress = {
      status: 'deferred',
      attempts: 20,
      createdAt: NOW - DEFAULT_RETRY.maxAgeMs,
    };
    const n = decideNext(old, attempt({}), NOW, 0.5);
    expect(n).toMatchObject({
      status: 'failed',
      events: [{ type: 'email.failed', data: { category: 'expired', last_category: 'policy_rejected' } }],
    });
  });

  it('is recorded on the delay event with its category and the time of the retry', () => {
    const n = decideNext(fresh, attempt({}), NOW, 0.3);
    expect(n.events).toEqual([
      {
        type: 'email.delivery_delayed',
        data: expect.objectContaining({
          category: 'policy_rejected',
          greylisted: true,
          bounce_type: 'transient',
          smtp_code: 450,
          enhanced_code: '4.7.1',
          next_attempt_at: new Date(n.nextAttemptAt!).toISOString(),
        }),
      },
    ]);
    expect(n.suppress).toBeUndefined();
  });
});

describe('categories on the events of the session', () => {
  it('puts the category of the reply on email.bounced and on email.delivery_delayed', () => {
    const bounced = decideNext(
      fresh,
      attempt({
        outcome: 'bounced',
        smtpCode: 552,
        enhanced: '5.2.2',
        reply: '552 5.2.2 Mailbox full',
        greylisted: false,
        category: 'mailbox_full',
        reason: 'the mailbox is full (5.2.2)',
      }),
      NOW,
      0.5,
    );
    expect(bounced.events[0]).toMatchObject({
      type: 'email.bounced',
      data: { category: 'mailbox_full', bounce_type: 'permanent', reason: 'the mailbox is full (5.2.2)' },
    });
    const throttled = decideNext(
      fresh,
      attempt({
        smtpCode: 421,
        enhanced: '4.7.28',
        greylisted: false,
        throttled: true,
        category: 'rate_limited',
      }),
      NOW,
      0.5,
    );
    expect(throttled.events[0]).toMatchObject({
      type: 'email.delivery_delayed',
      data: { category: 'rate_limited', greylisted: false },
    });
  });

  it('gives email.failed the category expired when txmail gives up, whatever the last deferral was', () => {
    for (const last of ['network_error', 'rate_limited', 'system_error', null] as const) {
      const n = decideNext(
        { status: 'deferred', attempts: 15, createdAt: 0 },
        attempt({ greylisted: false, category: last }),
        DEFAULT_RETRY.maxAgeMs,
        0.5,
      );
      expect(n.events).toEqual([
        { type: 'email.failed', data: expect.objectContaining({ category: 'expired', last_category: last }) },
      ]);
    }
  });

  it('gives no category to a message txmail could not send at all', () => {
    const n = failedPermanently('sender domain acme.example was removed', { sender_domain: 'acme.example' });
    expect(n.events[0]!.data).not.toHaveProperty('category');
  });

  it('records no category on a delivery', () => {
    const n = decideNext(
      fresh,
      attempt({ outcome: 'delivered', smtpCode: 250, enhanced: '2.0.0', greylisted: false, category: null }),
      NOW,
      0.5,
    );
    expect(n.events[0]!.data).not.toHaveProperty('category');
  });
});

describe('suppression from the category of a refusal during the session', () => {
  const bounce = (category: BounceCategory) =>
    attempt({ outcome: 'bounced', smtpCode: 550, enhanced: '5.0.0', greylisted: false, category });

  it.each(BOUNCE_CATEGORIES.map((c) => [c]))('%s', (category) => {
    const first = decideNext(fresh, bounce(category), NOW, 0.5);
    const again = decideNext({ ...fresh, disabledBefore: true }, bounce(category), NOW, 0.5);
    const dead = category === 'unknown_recipient' || category === 'unknown_domain';
    // complaint and unsubscribe never come from a session; were one given, it would suppress as a
    // report's does (bounce/categories.ts is the one rule).
    const unwanted = category === 'complaint' || category === 'unsubscribe';
    expect(first.suppress !== undefined).toBe(dead || unwanted);
    expect(again.suppress !== undefined).toBe(dead || unwanted || category === 'mailbox_disabled');
  });

  it('suppresses nothing for a deferral, whatever its category', () => {
    for (const category of BOUNCE_CATEGORIES) {
      expect(decideNext(fresh, attempt({ greylisted: false, category }), NOW, 0.5).suppress).toBeUndefined();
    }
  });
});

describe('expiry (a sending domain’s expire_after, or the default two days)', () => {
  /** Any attempt result that asks for a retry: a deferral, greylisted or not, of any category. */
  const deferral = fc.record({
    greylisted: fc.boolean(),
    category: fc.constantFrom(...BOUNCE_CATEGORIES, null),
  });

  it('never schedules a retry at or past the deadline; a retry that would be past it fails the message as expired', () => {
    fc.assert(
      fc.property(
        random01,
        deferral,
        fc.integer({ min: 0, max: 20 }),
        fc.option(fc.integer({ min: 60, max: 172_800 }), { nil: null }),
        // When the attempt ends, from the message's acceptance: up to past two days.
        fc.integer({ min: 0, max: 2 * 24 * 3600_000 + 3600_000 }),
        (random, d, attempts, expireAfter, elapsed) => {
          const createdAt = NOW;
          const deadline = messageDeadline(
            createdAt,
            expireAfter === null ? null : createdAt + expireAfter * 1000,
          );
          const n = decideNext(
            { status: attempts === 0 ? 'queued' : 'deferred', attempts, createdAt, deadline },
            attempt({ greylisted: d.greylisted, category: d.category }),
            createdAt + elapsed,
            random,
          );
          if (n.nextAttemptAt !== null) {
            expect(n.status).toBe('deferred');
            expect(n.nextAttemptAt).toBeLessThan(deadline);
          } else {
            // The only way a deferral ends: it expired, and says so in one shape.
            expect(n.status).toBe('failed');
            expect(n.events).toEqual([
              {
                type: 'email.failed',
                data: expect.objectContaining({
                  reason: 'expired',
                  category: 'expired',
                  last_category: d.category,
                  expired_at: new Date(deadline).toISOString(),
                }) as unknown,
              },
            ]);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('retries while the retry comes before the deadline, with the schedule unchanged', () => {
    fc.assert(
      fc.property(random01, fc.integer({ min: 60, max: 172_800 }), (random, expireAfter) => {
        const deadline = messageDeadline(NOW, NOW + expireAfter * 1000);
        const withDeadline = decideNext(
          { ...fresh, createdAt: NOW, deadline },
          attempt({ greylisted: false }),
          NOW,
          random,
        );
        const scheduled = nextAttemptAt(1, NOW, NOW, random)!;
        if (scheduled < deadline) expect(withDeadline.nextAttemptAt).toBe(scheduled);
        else expect(withDeadline.status).toBe('failed');
      }),
      { numRuns: 2000 },
    );
  });

  it('takes the stored deadline (the domain’s expire_after), never past the default, and two days without one', () => {
    expect(messageDeadline(NOW, null)).toBe(NOW + DEFAULT_RETRY.maxAgeMs);
    expect(messageDeadline(NOW, NOW + 600_000)).toBe(NOW + 600_000);
    expect(messageDeadline(NOW, NOW + 172_800_000)).toBe(NOW + 2 * 24 * 3600_000);
    expect(messageDeadline(NOW, NOW + 3 * 24 * 3600_000)).toBe(NOW + 2 * 24 * 3600_000);
    expect(messageDeadline(NOW, NOW + 600_000, { ...DEFAULT_RETRY, maxAgeMs: 60_000 })).toBe(NOW + 60_000);
    // Without a deadline given, decideNext applies the default one.
    const late = decideNext(
      { status: 'deferred', attempts: 5, createdAt: NOW },
      attempt({ greylisted: false }),
      NOW + DEFAULT_RETRY.maxAgeMs - MIN,
      0.5,
    );
    expect(late.events[0]!.data).toMatchObject({
      reason: 'expired',
      detail: expect.stringMatching(
        /^not delivered within 48 hours: no attempt was due before then; last reply: 450 /,
      ) as unknown,
    });
  });

  it('says when the deadline came during the attempt rather than before the next one', () => {
    /** The expiry detail of a first attempt deferred at `endedAt`, its deadline a minute in. */
    const detail = (endedAt: number) =>
      decideNext(
        { status: 'queued', attempts: 0, createdAt: NOW, deadline: NOW + MIN },
        attempt({ greylisted: false }),
        endedAt,
        0.5,
      ).events[0]!.data;
    expect(detail(NOW + MIN)).toMatchObject({
      reason: 'expired',
      detail: expect.stringMatching(
        /^not delivered within 1 minute: the deadline came during this attempt; last reply: 450 /,
      ) as unknown,
    });
    expect(detail(NOW + MIN - 1)).toMatchObject({
      detail: expect.stringMatching(
        /^not delivered within 1 minute: no attempt was due before then; /,
      ) as unknown,
    });
  });

  it('fails a message claimed past its deadline without an attempt, keeping the last deferral’s category', () => {
    const n = expiredUnattempted({ createdAt: NOW, attempts: 3 }, NOW + 10 * MIN, 'network_error');
    expect(n).toEqual({
      status: 'failed',
      nextAttemptAt: null,
      attemptOutcome: 'failed',
      events: [
        {
          type: 'email.failed',
          data: {
            attempts: 3,
            category: 'expired',
            last_category: 'network_error',
            reason: 'expired',
            expired_at: new Date(NOW + 10 * MIN).toISOString(),
            detail: 'not delivered within 10 minutes; not tried again',
          },
        },
      ],
    });
  });

  it('words lifetimes for the detail sentence', () => {
    expect(lifetimeWords(60_000)).toBe('1 minute');
    expect(lifetimeWords(90_000)).toBe('90 seconds');
    expect(lifetimeWords(3600_000)).toBe('1 hour');
    expect(lifetimeWords(86_400_000)).toBe('24 hours');
    expect(lifetimeWords(61 * 60_000)).toBe('61 minutes');
  });
});

describe('the first retry after an attempt that reached no server', () => {
  const { unreachedMs, baseMs, jitter } = DEFAULT_RETRY;
  const unreached = (enhanced: string, reply: string) =>
    attempt({
      smtpCode: null,
      enhanced,
      reply,
      remoteHost: null,
      remoteIp: null,
      tls: false,
      greylisted: false,
      category: 'network_error',
      reason: reply,
    });
  const lookUp = unreached('4.4.3', 'the DNS server failed (SERVFAIL) for example.org');
  const connect = unreached('4.4.1', 'could not connect: connect ECONNREFUSED 192.0.2.25:25');

  it('comes after 30 s with the jitter, not the schedule’s 5 minutes, for a failed look-up or connection', () => {
    fc.assert(
      fc.property(random01, fc.constantFrom(lookUp, connect), (random, result) => {
        const n = decideNext(fresh, result, NOW, random);
        expect(n.status).toBe('deferred');
        expect(n.nextAttemptAt).toBeGreaterThanOrEqual(NOW + unreachedMs * (1 - jitter));
        expect(n.nextAttemptAt).toBeLessThanOrEqual(NOW + unreachedMs * (1 + jitter));
      }),
      { numRuns: 500 },
    );
  });

  it('is the first only: the second such failure waits the schedule’s 10 minutes', () => {
    const n = decideNext({ ...fresh, status: 'deferred', attempts: 1 }, lookUp, NOW, 0.5);
    expect(n.nextAttemptAt).toBe(NOW + 2 * baseMs);
  });

  it('keeps the schedule where a server was reached: a lost session, a TLS refusal, a 4xx reply', () => {
    const reached = [
      unreached('4.4.2', 'connection lost: Connection closed unexpectedly'),
      unreached('4.7.5', 'the certificate of mx.example.org is not valid'),
      attempt({ greylisted: false, smtpCode: 451, enhanced: '4.3.0', reply: '451 4.3.0 try later' }),
    ];
    for (const result of reached)
      expect(decideNext(fresh, result, NOW, 0.5).nextAttemptAt).toBe(NOW + baseMs);
  });

  it('is not scheduled past the deadline: a code that expires sooner fails as expired', () => {
    const n = decideNext({ ...fresh, createdAt: NOW - 1000, deadline: NOW + 10_000 }, lookUp, NOW, 0.5);
    expect(n).toMatchObject({ status: 'failed', nextAttemptAt: null });
  });
});
