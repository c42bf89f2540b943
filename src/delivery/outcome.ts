// What an attempt's result does to the message: its next status, when to try again, which events to
// record (DESIGN.md §4–5). Pure: the clock and the random jitter are parameters.
import { suppressesAddress } from '../bounce/suppression-rule.js';
import { describeStatus } from '../bounce/status-reason.js';
import type { EventType, MessageStatus } from '../db/schema.js';
import { nextAttemptAt, type RetryPolicy, DEFAULT_RETRY } from './retry-schedule.js';
import type { AttemptResult } from './transport.js';

export interface MessageProgress {
  status: MessageStatus;
  attempts: number;
  createdAt: number;
}

export interface NextState {
  status: MessageStatus;
  nextAttemptAt: number | null;
  attemptOutcome: 'delivered' | 'deferred' | 'bounced' | 'failed';
  events: { type: EventType; data: Record<string, unknown> }[];
  /** The recipient goes on the account's suppression list (a dead address, DESIGN.md §7). */
  suppress?: { reason: string; enhanced: string };
}

export function decideNext(
  message: MessageProgress,
  result: AttemptResult,
  now: number,
  random: number,
  policy: RetryPolicy = DEFAULT_RETRY,
): NextState {
  const attempts = message.attempts + 1;
  const details = {
    attempt: attempts,
    smtp_code: result.smtpCode,
    enhanced_code: result.enhanced,
    reply: result.reply,
    remote_host: result.remoteHost,
    remote_ip: result.remoteIp,
    tls: result.tls,
  };
  if (result.outcome === 'delivered') {
    return {
      status: 'delivered',
      nextAttemptAt: null,
      attemptOutcome: 'delivered',
      events: [{ type: 'email.delivered', data: details }],
    };
  }
  if (result.outcome === 'bounced') {
    const reason = `${describeStatus(result.enhanced)} (${result.enhanced})`;
    return {
      status: 'bounced',
      nextAttemptAt: null,
      attemptOutcome: 'bounced',
      events: [{ type: 'email.bounced', data: { ...details, bounce_type: 'permanent', reason } }],
      // A refusal during the SMTP session is as final as a bounce message; 5.2.1 counts as a first
      // occurrence here (the inbound side sees the repeats).
      ...(suppressesAddress(result.enhanced, false)
        ? { suppress: { reason, enhanced: result.enhanced } }
        : {}),
    };
  }
  const next = nextAttemptAt(attempts, message.createdAt, now, random, policy);
  if (next === null) {
    return {
      status: 'failed',
      nextAttemptAt: null,
      attemptOutcome: 'failed',
      events: [
        {
          type: 'email.failed',
          data: {
            ...details,
            reason: `not delivered within ${Math.round(policy.maxAgeMs / 3600_000)} hours; last reply: ${result.reply}`,
          },
        },
      ],
    };
  }
  // Only the first deferral is an event (DESIGN.md §4); every attempt is still in delivery_attempts.
  const firstDeferral = message.status === 'queued';
  return {
    status: 'deferred',
    nextAttemptAt: next,
    attemptOutcome: 'deferred',
    events: firstDeferral
      ? [
          {
            type: 'email.delivery_delayed',
            data: { ...details, next_attempt_at: new Date(next).toISOString() },
          },
        ]
      : [],
  };
}

/**
 * A message that cannot be sent at all (e.g. its sender domain was removed, malformed stored data);
 * `details` go into the event beside the reason.
 */
export function failedPermanently(reason: string, details: Record<string, unknown> = {}): NextState {
  return {
    status: 'failed',
    nextAttemptAt: null,
    attemptOutcome: 'failed',
    events: [{ type: 'email.failed', data: { reason, ...details } }],
  };
}
