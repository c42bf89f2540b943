import { describe, expect, it } from 'vitest';
import { nextStep } from '../../src/messages/next-step.js';

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);
const MIN = 60_000;
const facts = { deadline: NOW + 47 * MIN, accountPaused: false };
const base = {
  status: 'deferred' as const,
  attempts: 2,
  next_attempt_at: NOW + 10 * MIN,
  lease_expires_at: null,
  category: 'mailbox_full',
};

describe('what happens next', () => {
  it('is nothing for a final message', () => {
    expect(nextStep({ ...base, status: 'delivered', next_attempt_at: null }, facts, NOW)).toBeNull();
    expect(nextStep({ ...base, status: 'test', next_attempt_at: null }, facts, NOW)).toBeNull();
  });

  it('names the retry, its time and the expiry', () => {
    const n = nextStep(base, facts, NOW)!;
    expect(n).toMatchObject({
      reason: 'retry',
      at: '2026-11-24T12:10:00.000Z',
      attempt: 3,
      expires_at: '2026-11-24T12:47:00.000Z',
    });
    expect(n.why).toBe(
      'retry 2 (attempt 3) at 2026-11-24T12:10:00.000Z after a temporary failure (mailbox_full); it expires at 2026-11-24T12:47:00.000Z',
    );
  });

  it('names the deadline when it comes before the wait ends: no attempt follows', () => {
    const lowered = { ...facts, deadline: NOW + 5 * MIN };
    expect(nextStep(base, lowered, NOW)).toEqual({
      reason: 'retry',
      at: '2026-11-24T12:05:00.000Z',
      attempt: 3,
      expires_at: '2026-11-24T12:05:00.000Z',
      why: 'waiting for its retry, due after its deadline: it fails as expired at 2026-11-24T12:05:00.000Z, without another attempt',
    });
    const first = { ...base, status: 'queued' as const, attempts: 0, category: null };
    expect(nextStep(first, lowered, NOW)).toMatchObject({
      reason: 'destination_paused',
      at: '2026-11-24T12:05:00.000Z',
      why: expect.stringMatching(/^waiting for its destination, due after its deadline/) as unknown,
    });
    // A retry at the deadline itself would not start either.
    expect(nextStep({ ...base, next_attempt_at: NOW + 5 * MIN }, lowered, NOW)!.at).toBe(
      '2026-11-24T12:05:00.000Z',
    );
    expect(nextStep(base, facts, NOW)!.at).toBe('2026-11-24T12:10:00.000Z');
  });

  it('tells a throttle, a paused destination, a paused account, a due and a running attempt apart', () => {
    expect(nextStep({ ...base, category: 'rate_limited' }, facts, NOW)!.reason).toBe('throttled');
    expect(nextStep({ ...base, status: 'queued', attempts: 0, category: null }, facts, NOW)!.reason).toBe(
      'destination_paused',
    );
    expect(nextStep(base, { ...facts, accountPaused: true }, NOW)!.reason).toBe('account_paused');
    expect(nextStep({ ...base, next_attempt_at: NOW - 1 }, facts, NOW)).toMatchObject({
      reason: 'due',
      at: new Date(NOW).toISOString(),
    });
    expect(nextStep({ ...base, lease_expires_at: NOW + MIN }, facts, NOW)!.reason).toBe('delivering');
    // Under way past its deadline: it only waits for the reply to its final ".".
    expect(
      nextStep({ ...base, lease_expires_at: NOW + MIN }, { ...facts, deadline: NOW - 1 }, NOW)!.why,
    ).toMatch(
      /^attempt 3 is under way: its data was sent before its deadline and it waits for the server's reply; it expires at /,
    );
  });
});
