// What an attempt's result does to the message: its next status, when to try again, which events to
// record and whether the recipient is suppressed (ARCHITECTURE.md, "The path of a message"). Pure: the
// clock, the random jitter and what the database knows of the address are parameters.
import { recordedCategory, suppresses } from '../bounce/categories.js';
import { describeStatus } from '../bounce/status-reason.js';
import type { EventType, MessageStatus } from '../db/schema.js';
import {
  greylistRetryAt,
  lifetimeWords,
  messageDeadline,
  nextAttemptAt,
  unreachedRetryAt,
  type RetryPolicy,
  DEFAULT_RETRY,
} from './retry-schedule.js';
import { tlsDetailsJson } from './tls-details-json.js';
import type { AttemptResult } from './transport.js';

export interface MessageProgress {
  status: MessageStatus;
  attempts: number;
  createdAt: number;
  /**
   * Mail of this account to this address already bounced as `mailbox_disabled` within
   * DISABLED_REPEAT_WINDOW_MS (bounce/categories.ts). Looked up by the worker only when this attempt
   * bounced so.
   */
  disabledBefore?: boolean;
  /**
   * When txmail stops trying the message (retry-schedule.ts messageDeadline: its domain's
   * expire_after); undefined: createdAt + the policy's maximum age.
   */
  deadline?: number;
}

/**
 * The attempt reached no SMTP server: the look-ups failed for the moment (4.4.3: an MX or address
 * look-up's SERVFAIL or timeout, or no address found), or no host could be connected to or greeted
 * within the time (4.4.1). Not a session that broke off (4.4.2), nor one refused for TLS (4.7.x): a
 * server was reached there.
 */
export function reachedNoServer(result: AttemptResult): boolean {
  return result.smtpCode === null && (result.enhanced === '4.4.1' || result.enhanced === '4.4.3');
}

export interface NextState {
  status: MessageStatus;
  nextAttemptAt: number | null;
  attemptOutcome: 'delivered' | 'deferred' | 'bounced' | 'failed';
  events: { type: EventType; data: Record<string, unknown> }[];
  /** The recipient goes on the account's suppression list (a dead address, docs/API.md Suppressions). */
  suppress?: { reason: string; enhanced: string };
}

/**
 * The result leaves the message to the retry schedule, where its deadline decides whether another
 * attempt comes: a deferral, or a refusal of the sending address (kept queued even when 5xx: decideNext).
 */
export function leftToSchedule(result: AttemptResult): boolean {
  return result.outcome === 'deferred' || (result.outcome === 'bounced' && result.senderBlock === true);
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
    // What the session negotiated and the policy applied (ARCHITECTURE.md, "TLS policy"), when a
    // session answered.
    ...(result.tlsDetails ? { tls_details: tlsDetailsJson(result.tlsDetails) } : {}),
  };
  if (result.outcome === 'delivered') {
    return {
      status: 'delivered',
      nextAttemptAt: null,
      attemptOutcome: 'delivered',
      events: [{ type: 'email.delivered', data: details }],
    };
  }
  // The verdict's plain words (they name the code); otherwise, as before verdicts had words, the
  // code's meaning.
  const reason =
    result.reason !== '' ? result.reason : `${describeStatus(result.enhanced)} (${result.enhanced})`;
  // A refusal of the sending address (a blocklist, its reputation) says nothing about the recipient
  // or the message: even a 5xx keeps the message queued, never bounces or suppresses it, and is
  // recorded as a policy refusal flagged `sender_block` (ARCHITECTURE.md, "Destination blocks").
  const senderBlock = result.senderBlock === true;
  if (!leftToSchedule(result)) {
    // A refusal during the SMTP session is as final as a bounce report, and its category suppresses the
    // same way (bounce/categories.ts suppresses): a dead address does, a policy or content refusal
    // never. A disabled mailbox counts when it is the second within the window.
    const suppressed =
      result.category !== null && suppresses(result.category, 'permanent', message.disabledBefore === true);
    return {
      status: 'bounced',
      nextAttemptAt: null,
      attemptOutcome: 'bounced',
      events: [
        {
          type: 'email.bounced',
          data: {
            ...details,
            bounce_type: 'permanent',
            category: result.category,
            reason,
          },
        },
      ],
      ...(suppressed ? { suppress: { reason, enhanced: result.enhanced } } : {}),
    };
  }
  // A greylisting reply waits out the greylist; a first attempt that reached no server is tried again
  // soon; everything else keeps the schedule (retry-schedule.ts).
  const scheduled =
    attempts === 1 && reachedNoServer(result)
      ? unreachedRetryAt(message.createdAt, now, random, policy)
      : (result.greylisted ? greylistRetryAt : nextAttemptAt)(
          attempts,
          message.createdAt,
          now,
          random,
          policy,
        );
  // No retry at or past the deadline (as SES: none past the message's lifetime): a retry that could
  // not start would only keep the message waiting for its failure.
  const deadline = message.deadline ?? messageDeadline(message.createdAt, null, policy);
  const next = scheduled !== null && scheduled < deadline ? scheduled : null;
  if (next === null) {
    return failedWith({
      ...details,
      ...expiredData(deadline, recordedCategory(result.category, senderBlock, result.enhanced)),
      // Given up at this attempt: its deadline came while it ran (an attempt is cut there short of its
      // final "."), or the next attempt would have come after it.
      detail: `${expiredDetail(message.createdAt, deadline)}: ${now >= deadline ? 'the deadline came during this attempt' : 'no attempt was due before then'}; last reply: ${result.reply}`,
    });
  }
  // Only the first deferral is an event (ARCHITECTURE.md); every attempt is still in delivery_attempts.
  const firstDeferral = message.status === 'queued';
  return {
    status: 'deferred',
    nextAttemptAt: next,
    attemptOutcome: 'deferred',
    events: firstDeferral
      ? [
          {
            type: 'email.delivery_delayed',
            data: {
              ...details,
              bounce_type: 'transient',
              category: recordedCategory(result.category, senderBlock, result.enhanced),
              reason,
              greylisted: result.greylisted,
              ...(senderBlock ? { sender_block: true } : {}),
              next_attempt_at: new Date(next).toISOString(),
            },
          },
        ]
      : [],
  };
}

/**
 * A message that cannot be sent at all (e.g. its sender domain was removed, malformed stored data);
 * `details` go into the event beside the reason. No category: nothing came back from the recipient's
 * side (the categories name what did, docs/API.md Bounce categories); the reason says why.
 */
export function failedPermanently(reason: string, details: Record<string, unknown> = {}): NextState {
  return failedWith({ reason, ...details });
}

/**
 * A message claimed at or after its deadline (it waited in the queue, or for a paused destination):
 * it fails without an attempt (ARCHITECTURE.md, "Expiry"). `lastCategory`: the category of its last
 * deferral, if any (messages.category).
 */
export function expiredUnattempted(
  message: Pick<MessageProgress, 'createdAt' | 'attempts'>,
  deadline: number,
  lastCategory: string | null,
): NextState {
  return failedWith({
    attempts: message.attempts,
    ...expiredData(deadline, lastCategory),
    detail: `${expiredDetail(message.createdAt, deadline)}; not tried again`,
  });
}

/** The message ends `failed` with one `email.failed` event carrying `data`. */
function failedWith(data: Record<string, unknown>): NextState {
  return {
    status: 'failed',
    nextAttemptAt: null,
    attemptOutcome: 'failed',
    events: [{ type: 'email.failed', data }],
  };
}

/**
 * What every expiry says (docs/API.md, email.failed): txmail gave up (`reason` "expired", category
 * `expired`), the last deferral's category beside it, and when.
 */
function expiredData(deadline: number, lastCategory: string | null) {
  return {
    category: 'expired',
    last_category: lastCategory,
    reason: 'expired',
    expired_at: new Date(deadline).toISOString(),
  };
}

function expiredDetail(createdAt: number, deadline: number): string {
  return `not delivered within ${lifetimeWords(deadline - createdAt)}`;
}
