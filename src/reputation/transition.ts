// How an account's reputation state moves on a verdict (ARCHITECTURE.md, "Reputation guardrails"). Pure.
import type { ReputationStatus, ReputationVerdict } from './judge.js';

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
 * (a warned account whose rates fall back is healthy again); paused is left only by the operator: the
 * same list that earned the pause would earn it again, and an account whose window empties (nothing
 * sent, nothing bounced) must not unpause itself by waiting.
 */
export function decideTransition(
  current: ReputationStatus,
  verdict: ReputationVerdict,
): ReputationTransition | undefined {
  if (current === 'paused' || verdict.status === current) return undefined;
  return {
    from: current,
    to: verdict.status,
    reason: verdict.reason,
    tellAccount: verdict.status !== 'healthy',
  };
}
