// The verdict on an account's rolling window (ARCHITECTURE.md, "Reputation guardrails"). Pure.
import type { ReputationThresholds } from './thresholds.js';

export type ReputationStatus = 'healthy' | 'warning' | 'paused';

/** What a window holds: messages that reached a final state, and how many of them count against it. */
export interface ReputationWindow {
  /**
   * Messages that reached a final state in the window: delivered, bounced, failed, or ended by a
   * complaint or an unsubscribe while still queued (a complaint about a message already final adds
   * none).
   */
  messages: number;
  /** Permanent bounces whose category says the address is bad (bounce/categories.ts). */
  bounced: number;
  /** Spam complaints (category `complaint`; an unsubscribe is not one). */
  complained: number;
}

export interface ReputationVerdict {
  status: ReputationStatus;
  bounceRate: number;
  complaintRate: number;
  /** Why, with the rate and the threshold, for a status other than healthy; '' for healthy. */
  reason: string;
  /** False below `minMessages`: the rates were not weighed (healthy whatever they are). */
  judged: boolean;
}

/** A rate of a window (0 when it holds no message). */
export function rate(part: number, messages: number): number {
  return messages > 0 ? part / messages : 0;
}

/**
 * The status a window earns: paused at or above either pause threshold, warning at or above either
 * warning threshold, healthy otherwise; always healthy below `minMessages` (a handful of messages says
 * nothing about a list). Complaints are judged first: they cost the shared reputation most.
 */
export function judgeReputation(w: ReputationWindow, t: ReputationThresholds): ReputationVerdict {
  const bounceRate = rate(w.bounced, w.messages);
  const complaintRate = rate(w.complained, w.messages);
  const verdict = (status: ReputationStatus, reason: string, judged = true) => ({
    status,
    bounceRate,
    complaintRate,
    reason,
    judged,
  });
  if (w.messages < t.minMessages) return verdict('healthy', '', false);
  const over = (what: string, value: number, limit: number, count: number) =>
    `the ${what} rate over the last ${t.windowDays} days is ${percent(value)} (${count} of ${w.messages} messages), at or above ${percent(limit)}`;
  if (complaintRate >= t.complaintPause)
    return verdict('paused', over('complaint', complaintRate, t.complaintPause, w.complained));
  if (bounceRate >= t.bouncePause)
    return verdict('paused', over('bounce', bounceRate, t.bouncePause, w.bounced));
  if (complaintRate >= t.complaintWarn)
    return verdict('warning', over('complaint', complaintRate, t.complaintWarn, w.complained));
  if (bounceRate >= t.bounceWarn)
    return verdict('warning', over('bounce', bounceRate, t.bounceWarn, w.bounced));
  return verdict('healthy', '');
}

/** A rate as people write it: `12.5 %`, `0.12 %`. */
export function percent(fraction: number): string {
  const p = fraction * 100;
  return `${p >= 10 ? p.toFixed(1) : p >= 1 ? p.toFixed(2) : p.toFixed(3).replace(/0+$/, '').replace(/\.$/, '')} %`;
}
