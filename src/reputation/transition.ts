// How an account's reputation state moves on a verdict (ARCHITECTURE.md, "Reputation guardrails"). Pure.
import type { ReputationStatus, ReputationVerdict } from './judge.js';
import type { ReputationThresholds } from './thresholds.js';

/**
 * A warning ends only once both rates are below this share of their warning thresholds (4 % bounces,
 * 0.08 % complaints with the defaults), or once the window holds too few messages to be judged: a
 * rate hovering at the warning line would otherwise move warning → healthy → warning on every sweep,
 * with an email each time it comes back.
 */
export const WARNING_EXIT_MARGIN = 0.8;

export interface ReputationTransition {
  from: ReputationStatus;
  to: ReputationStatus;
  /** The verdict's reason ('' back to healthy). */
  reason: string;
  /** A move to warning or paused is told to the account (notice, email, webhook event). */
  tellAccount: boolean;
}

/**
 * The move a verdict calls for, or undefined for none. healthy and warning follow the verdict both ways
 * (a warned account whose rates fall back is healthy again, once they are clearly below the warning
 * line: WARNING_EXIT_MARGIN); paused is left only by the operator: the same list that earned the pause
 * would earn it again, and an account whose window empties (nothing sent, nothing bounced) must not
 * unpause itself by waiting.
 */
export function decideTransition(
  current: ReputationStatus,
  verdict: ReputationVerdict,
  t: ReputationThresholds,
): ReputationTransition | undefined {
  if (current === 'paused' || verdict.status === current) return undefined;
  if (
    current === 'warning' &&
    verdict.status === 'healthy' &&
    verdict.judged &&
    !(clearlyBelow(verdict.bounceRate, t.bounceWarn) && clearlyBelow(verdict.complaintRate, t.complaintWarn))
  )
    return undefined;
  return {
    from: current,
    to: verdict.status,
    reason: verdict.reason,
    tellAccount: verdict.status !== 'healthy',
  };
}

/**
 * rate < warn × WARNING_EXIT_MARGIN, compared in billionths so that binary fractions do not decide
 * (0.05 × 0.8 is 0.04000000000000001, which 400 of 10,000 would be below).
 */
function clearlyBelow(rate: number, warn: number): boolean {
  return Math.round(rate * 1e9) < Math.round(warn * WARNING_EXIT_MARGIN * 1e9);
}
