// The domain status machine (docs/design.md §6) and the re-check schedule, as pure functions of the check's
// outcome and the time:
//   pending ─pass→ verified            pending ─no pass for 72 h→ failed
//   verified ─fail→ temporary_failure ─pass→ verified     temporary_failure ─fail for 72 h→ failed
// An inconclusive check (DNS failing temporarily) never moves a domain that verified: a resolver outage
// must not take a customer's sending away.
import type { DomainStatus } from '../db/schema.js';
import type { CheckOutcome } from './domain-check.js';

const HOUR = 3600_000;
/** How long a new domain has to verify. */
export const VERIFICATION_WINDOW_MS = 72 * HOUR;
/** How long a verified domain's records may be missing before it fails. */
export const GRACE_PERIOD_MS = 72 * HOUR;

export interface DomainState {
  status: DomainStatus;
  verified_at: number | null;
  verification_started_at: number | null;
  failing_since: number | null;
}

export function nextDomainState(s: DomainState, outcome: CheckOutcome, now: number): DomainState {
  const verified = { ...s, status: 'verified' as const, failing_since: null };
  switch (s.status) {
    case 'pending':
    case 'failed': {
      if (outcome === 'pass') return { ...verified, verified_at: now };
      if (s.status === 'failed') return s;
      const started = s.verification_started_at ?? now;
      return now - started >= VERIFICATION_WINDOW_MS ? { ...s, status: 'failed' } : s;
    }
    case 'verified':
      if (outcome === 'fail') return { ...s, status: 'temporary_failure', failing_since: now };
      return s;
    case 'temporary_failure': {
      if (outcome === 'pass') return verified;
      if (outcome === 'inconclusive') return s;
      const since = s.failing_since ?? now;
      return now - since >= GRACE_PERIOD_MS ? { ...s, status: 'failed' } : { ...s, failing_since: since };
    }
  }
}

/**
 * When to check next: fast while a customer is likely waiting for a new domain (backing off as the
 * hours pass), every 15 minutes during a grace period, hourly once verified, never once failed (a
 * manual verify starts over). A check that could not finish is retried within 5 minutes.
 */
export function nextCheckAt(s: DomainState, outcome: CheckOutcome, now: number): number | null {
  let interval: number;
  switch (s.status) {
    case 'failed':
      return null;
    case 'verified':
      interval = HOUR;
      break;
    case 'temporary_failure':
      interval = 15 * 60_000;
      break;
    case 'pending': {
      const elapsed = now - (s.verification_started_at ?? now);
      interval =
        elapsed < 15 * 60_000
          ? 60_000
          : elapsed < HOUR
            ? 5 * 60_000
            : elapsed < 24 * HOUR
              ? 15 * 60_000
              : HOUR;
      break;
    }
  }
  if (outcome === 'inconclusive') interval = Math.min(interval, 5 * 60_000);
  return now + interval;
}
