// The reputation guardrails' pure rules: TXMAIL_REPUTATION's parse, the verdict on a window (its
// boundaries: exactly at a threshold, below min_messages), the state moves (paused is sticky), and what
// the account is told (notice, webhook payload, email).
import { describe, expect, it } from 'vitest';
import { judgeReputation, percent, type ReputationVerdict } from '../../src/reputation/judge.js';
import { reputationEvent, reputationMail, reputationNotice } from '../../src/reputation/reputation-notice.js';
import { DEFAULT_REPUTATION, parseReputation } from '../../src/reputation/thresholds.js';
import { decideTransition as decide } from '../../src/reputation/transition.js';
import { eventPayload } from '../../src/webhooks/payload.js';

describe('TXMAIL_REPUTATION', () => {
  it('keeps the defaults (SES: 5 % / 10 % bounces, 0.1 % / 0.5 % complaints, 500 messages, 7 days)', () => {
    expect(parseReputation('')).toEqual(DEFAULT_REPUTATION);
    expect(DEFAULT_REPUTATION).toEqual({
      bounceWarn: 0.05,
      bouncePause: 0.1,
      complaintWarn: 0.001,
      complaintPause: 0.005,
      minMessages: 500,
      windowDays: 7,
    });
  });

  it('overrides any setting, rates in percent', () => {
    expect(parseReputation('min_messages=20')).toEqual({ ...DEFAULT_REPUTATION, minMessages: 20 });
    expect(
      parseReputation('bounce_warn=2, bounce_pause=4,complaint_warn=0.05,complaint_pause=0.2,window_days=14'),
    ).toEqual({
      bounceWarn: 0.02,
      bouncePause: 0.04,
      complaintWarn: 0.0005,
      complaintPause: 0.002,
      minMessages: 500,
      windowDays: 14,
    });
  });

  it.each([
    ['bounce=5', /not one of/],
    ['bounce_warn=abc', /not one of/],
    ['bounce_warn=0', /above 0/],
    ['bounce_pause=101', /at most 100/],
    ['min_messages=2.5', /whole number/],
    ['window_days=0', /whole number/],
    ['window_days=91', /at most 90/],
    ['bounce_warn=20', /bounce_warn must not be above bounce_pause/],
    ['complaint_warn=1', /complaint_warn must not be above complaint_pause/],
  ])('refuses %s', (text, message) => {
    expect(() => parseReputation(text)).toThrow(message);
  });
});

describe('the verdict on a window', () => {
  const t = { ...DEFAULT_REPUTATION, minMessages: 20 };

  it('is healthy below min_messages whatever the rates', () => {
    expect(judgeReputation({ messages: 19, bounced: 19, complained: 19 }, t).status).toBe('healthy');
    expect(judgeReputation({ messages: 0, bounced: 0, complained: 0 }, t)).toMatchObject({
      status: 'healthy',
      bounceRate: 0,
      complaintRate: 0,
      reason: '',
    });
  });

  it('pauses at exactly 10 % bounces, warns just below', () => {
    const at = judgeReputation({ messages: 20, bounced: 2, complained: 0 }, t);
    expect(at.status).toBe('paused');
    expect(at.bounceRate).toBe(0.1);
    expect(at.reason).toBe(
      'the bounce rate over the last 7 days is 10.0 % (2 of 20 messages), at or above 10.0 %',
    );
    expect(judgeReputation({ messages: 1000, bounced: 99, complained: 0 }, t).status).toBe('warning');
  });

  it('warns at exactly 5 % bounces, healthy just below', () => {
    expect(judgeReputation({ messages: 20, bounced: 1, complained: 0 }, t).status).toBe('warning');
    expect(judgeReputation({ messages: 1000, bounced: 49, complained: 0 }, t).status).toBe('healthy');
  });

  it('judges complaints at their own, lower thresholds, before bounces', () => {
    expect(judgeReputation({ messages: 1000, bounced: 0, complained: 1 }, t).status).toBe('warning');
    expect(judgeReputation({ messages: 1000, bounced: 0, complained: 5 }, t).status).toBe('paused');
    const both = judgeReputation({ messages: 1000, bounced: 200, complained: 5 }, t);
    expect(both.reason).toMatch(/^the complaint rate .* is 0\.5 % \(5 of 1000 messages\)/);
  });

  it('writes rates as people do', () => {
    expect(percent(0.125)).toBe('12.5 %');
    expect(percent(0.052)).toBe('5.20 %');
    expect(percent(0.001)).toBe('0.1 %');
  });
});

describe('the state moves', () => {
  const verdict = (status: 'healthy' | 'warning' | 'paused') => ({
    status,
    bounceRate: 0,
    complaintRate: 0,
    reason: status === 'healthy' ? '' : `why ${status}`,
    judged: true,
  });
  const t = DEFAULT_REPUTATION;
  const decideTransition = (current: 'healthy' | 'warning' | 'paused', v: ReputationVerdict) =>
    decide(current, v, t);

  it('follows the verdict between healthy and warning, both ways', () => {
    expect(decideTransition('healthy', verdict('warning'))).toEqual({
      from: 'healthy',
      to: 'warning',
      reason: 'why warning',
      tellAccount: true,
    });
    expect(decideTransition('warning', verdict('healthy'))).toEqual({
      from: 'warning',
      to: 'healthy',
      reason: '',
      tellAccount: false,
    });
  });

  it('leaves warning only once both rates are below 80 % of their warning thresholds', () => {
    const window = (bounced: number, complained: number) =>
      judgeReputation({ messages: 10_000, bounced, complained }, t);
    // 4.9 % bounces: healthy by the verdict, but at the line: still warning, no move, no email.
    expect(decideTransition('warning', window(490, 0))).toBeUndefined();
    // Exactly 80 % of the threshold (4 %) is not below it.
    expect(decideTransition('warning', window(400, 0))).toBeUndefined();
    expect(decideTransition('warning', window(399, 0))).toMatchObject({ to: 'healthy' });
    // Both rates must be below: 0.09 % complaints (80 % of 0.1 % is 0.08 %) keeps the warning.
    expect(decideTransition('warning', window(0, 9))).toBeUndefined();
    expect(decideTransition('warning', window(0, 7))).toMatchObject({ to: 'healthy' });
    // Healthy → warning still happens at the threshold itself.
    expect(decideTransition('healthy', window(500, 0))).toMatchObject({ to: 'warning' });
    expect(decideTransition('healthy', window(490, 0))).toBeUndefined();
    // Too few messages to judge (the bad days left the window): the warning ends whatever the rates.
    const few = judgeReputation({ messages: 10, bounced: 1, complained: 0 }, t);
    expect(decideTransition('warning', few)).toMatchObject({ to: 'healthy' });
  });

  it('pauses from healthy or warning, and tells the account', () => {
    expect(decideTransition('healthy', verdict('paused'))).toMatchObject({ to: 'paused', tellAccount: true });
    expect(decideTransition('warning', verdict('paused'))).toMatchObject({ to: 'paused', tellAccount: true });
  });

  it('never leaves paused by itself, and does not move to the same status', () => {
    for (const s of ['healthy', 'warning', 'paused'] as const) {
      expect(decideTransition('paused', verdict(s))).toBeUndefined();
      expect(decideTransition(s, verdict(s))).toBeUndefined();
    }
  });
});

describe('what the account is told', () => {
  const facts = {
    accountId: 'acc-1',
    status: 'paused' as const,
    reason: 'the bounce rate over the last 7 days is 15.0 % (3 of 20 messages), at or above 10.0 %',
    bounceRate: 0.15,
    complaintRate: 0,
    messages: 20,
    windowDays: 7,
  };

  it('pushes account events without email fields', () => {
    const row = reputationEvent(facts, 'ev-1', Date.UTC(2026, 10, 24, 8));
    expect(row).toMatchObject({ message_id: null, type: 'account.paused', account_id: 'acc-1' });
    const payload = eventPayload({
      event: { id: row.id, type: row.type, created_at: row.created_at, data: row.data },
      message: null,
    });
    expect(payload).toEqual({
      type: 'account.paused',
      created_at: '2026-11-24T08:00:00.000Z',
      data: {
        account_id: 'acc-1',
        status: 'paused',
        reason: facts.reason,
        bounce_rate: 0.15,
        complaint_rate: 0,
        messages: 20,
        window_days: 7,
      },
    });
    expect(reputationEvent({ ...facts, status: 'warning' }, 'ev-2', 0).type).toBe('account.warning');
  });

  it('says what happened, the rate, the thresholds and what to do', () => {
    const notice = reputationNotice(facts, 'n-1', 0);
    expect(notice.kind).toBe('reputation_paused');
    expect(notice.message).toContain('15.0 %');
    const mail = reputationMail(facts, DEFAULT_REPUTATION, 'https://mail.example');
    expect(mail.subject).toMatch(/paused/);
    expect(mail.html).toContain('15.0 %');
    expect(mail.html).toContain('pause at 10.0 %');
    expect(mail.html).toContain('403 account_paused');
    expect(mail.html).toMatch(/ask the operator of this service to resume/);
    const warned = reputationMail(
      { ...facts, status: 'warning' },
      DEFAULT_REPUTATION,
      'https://mail.example',
    );
    expect(warned.html).toMatch(/Nothing is blocked yet/);
  });
});
