// What an SMTP reply means for the message (RFC 5321 §4.2.1 reply classes, RFC 3463 enhanced codes).
// The meaning of the failure itself (its category, enhanced code, greylisting, rate limits) is reply
// intelligence's (bounce/reply-intelligence.ts), shared with the bounce reports so that the same words
// mean the same in the session and in a report (ARCHITECTURE.md, "Reply intelligence").
import type { BounceCategory } from '../bounce/categories.js';
import { impliedEnhancedCode } from '../bounce/enhanced-code.js';
import { classifySmtpReply, type BounceType } from '../bounce/reply-intelligence.js';

export type ReplyOutcome = 'delivered' | 'deferred' | 'bounced';

export interface ReplyClass {
  outcome: ReplyOutcome;
  /** The enhanced status code, from the reply, its words, or inferred from the basic code. */
  enhanced: string;
  /** The destination asked us to slow down: close the connection, lower concurrency, pause. */
  throttled: boolean;
  /** A greylisting deferral: retry after the greylist's delay, leave the destination's limits alone. */
  greylisted: boolean;
  category: BounceCategory;
  /** Plain words, e.g. "the mailbox does not exist (5.1.1)". */
  reason: string;
  type: BounceType;
  /** The refusal is of the sending address (a blocklist, its reputation), not the recipient (reply-intelligence.ts). */
  senderBlock: boolean;
}

/**
 * Classifies one reply. `code` is the basic three-digit code; `text` the reply text; `stage` the command
 * it answered when known (reply-intelligence.ts classifySmtpReply).
 */
export function classifyReply(code: number, text: string, stage?: string): ReplyClass {
  const cls = Math.floor(code / 100);
  // The basic code decides permanence (RFC 3463 §2: the enhanced class must agree; when a server
  // disagrees with itself we trust the code every client acts on).
  if (cls === 2) return delivered(text);
  const outcome: ReplyOutcome = cls === 5 ? 'bounced' : 'deferred';
  const v = classifySmtpReply(code, text, stage);
  return {
    outcome,
    enhanced: v.enhanced ?? impliedEnhancedCode(code),
    throttled: v.throttled,
    greylisted: v.greylisted,
    category: v.category,
    reason: v.reason,
    type: v.type,
    senderBlock: v.senderBlock,
  };
}

/**
 * A success says nothing reply intelligence weighs: it is neither transient (so never throttled or
 * greylisted) nor a refusal (so never a block of the sender), and its words are not a failure's reason.
 * Running the failure rules over every delivered message's reply cost the worker's event loop about 2 %
 * of its time in bench/e2e.
 */
function delivered(text: string): ReplyClass {
  return {
    outcome: 'delivered',
    enhanced: deliveredCode(text),
    throttled: false,
    greylisted: false,
    category: 'undetermined',
    reason: '',
    type: 'undetermined',
    senderBlock: false,
  };
}

const SUCCESS = /^\s*(?:2\d\d[\s-]+)?(2\.\d{1,3}\.\d{1,3})\b/;

function deliveredCode(text: string): string {
  return SUCCESS.exec(text)?.[1] ?? '2.0.0';
}
