// When to try a deferred message again (DESIGN.md §5): 5 min × 2^(n−1), capped at 4 h, ±15 % jitter,
// until the message is older than the maximum age, when it fails for good.
export interface RetryPolicy {
  baseMs: number;
  capMs: number;
  jitter: number;
  maxAgeMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  baseMs: 5 * 60_000,
  capMs: 4 * 3600_000,
  jitter: 0.15,
  maxAgeMs: 2 * 24 * 3600_000,
};

/**
 * The time of the next attempt after `attempts` failed ones, or null when the message should give up.
 * `random` is in [0, 1): the jitter spreads retries so a recovered destination is not hit all at once.
 */
export function nextAttemptAt(
  attempts: number,
  createdAt: number,
  now: number,
  random: number,
  policy: RetryPolicy = DEFAULT_RETRY,
): number | null {
  const delay = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
  const jittered = delay * (1 + policy.jitter * (2 * random - 1));
  const at = Math.round(now + jittered);
  return at - createdAt > policy.maxAgeMs ? null : at;
}
