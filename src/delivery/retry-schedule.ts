// When to try a deferred message again (ARCHITECTURE.md, "The path of a message"): 5 min × 2^(n−1),
// capped at 4 h, ±15 % jitter, until the message is older than the maximum age, when it fails for good;
// 30 s the first time when the attempt reached no server (unreachedRetryAt).
// A greylisting reply is answered on the same schedule with the jitter only upward and never before
// the greylist's usual delay (see greylistRetryAt).
export interface RetryPolicy {
  baseMs: number;
  capMs: number;
  jitter: number;
  maxAgeMs: number;
  /**
   * The earliest retry after a greylisting reply. Greylisters (Postgrey, Postfix access maps, rspamd)
   * refuse a new (client, sender, recipient) triplet until about 5 minutes have passed; a retry before
   * that is refused again and only adds an attempt.
   */
  greylistMs: number;
  /**
   * The first retry after an attempt that reached no server at all (unreachedRetryAt): a look-up that
   * failed for the moment, or no host that could be connected to.
   */
  unreachedMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  baseMs: 5 * 60_000,
  capMs: 4 * 3600_000,
  jitter: 0.15,
  maxAgeMs: 2 * 24 * 3600_000,
  greylistMs: 5 * 60_000,
  unreachedMs: 30_000,
};

/** The schedule's delay after `attempts` failed attempts, before jitter. */
function scheduledDelay(attempts: number, policy: RetryPolicy): number {
  return Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
}

function withinMaxAge(at: number, createdAt: number, policy: RetryPolicy): number | null {
  return at - createdAt > policy.maxAgeMs ? null : at;
}

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
  const jittered = scheduledDelay(attempts, policy) * (1 + policy.jitter * (2 * random - 1));
  return withinMaxAge(Math.round(now + jittered), createdAt, policy);
}

/**
 * The next attempt after a greylisting reply (the attempt's result says `greylisted`): the schedule's
 * delay, at least `greylistMs`, with the jitter only upward, so the first retry after a greylist comes
 * 5 to 5¾ minutes later and never inside the greylist's window. The schedule itself is unchanged: a
 * later attempt that is deferred for another reason waits as long as it would have.
 */
export function greylistRetryAt(
  attempts: number,
  createdAt: number,
  now: number,
  random: number,
  policy: RetryPolicy = DEFAULT_RETRY,
): number | null {
  const delay = Math.max(policy.greylistMs, scheduledDelay(attempts, policy));
  return withinMaxAge(Math.ceil(now + delay * (1 + policy.jitter * random)), createdAt, policy);
}

/**
 * The first retry after an attempt that reached no server (outcome.ts reachedNoServer): `unreachedMs`
 * (30 s) with the jitter, in place of the schedule's 5 minutes. Such failures are most often a moment's:
 * a resolver's SERVFAIL or timeout, a host restarting; a one-time code cannot wait 5 minutes for them,
 * and an attempt that reaches nobody costs the destination nothing. Only the first: a failure that
 * lasts past it is the schedule's (the second retry comes at its usual 10 minutes).
 */
export function unreachedRetryAt(
  createdAt: number,
  now: number,
  random: number,
  policy: RetryPolicy = DEFAULT_RETRY,
): number | null {
  const jittered = policy.unreachedMs * (1 + policy.jitter * (2 * random - 1));
  return withinMaxAge(Math.round(now + jittered), createdAt, policy);
}

/**
 * When txmail stops trying a message (ARCHITECTURE.md, "Expiry"): `deadlineAt` (messages.deadline_at,
 * fixed from its sending domain's expire_after), or its acceptance plus the policy's maximum age when
 * that is null or later. No attempt starts at or after the deadline, and no retry is scheduled for then
 * (outcome.ts).
 */
export function messageDeadline(
  createdAt: number,
  deadlineAt: number | null,
  policy: RetryPolicy = DEFAULT_RETRY,
): number {
  const maxAge = createdAt + policy.maxAgeMs;
  return deadlineAt === null ? maxAge : Math.min(maxAge, deadlineAt);
}

/** A lifetime in words for a reason sentence: "10 minutes", "1 hour", "48 hours", "90 seconds". */
export function lifetimeWords(ms: number): string {
  const [n, unit] =
    ms % 3600_000 === 0
      ? [ms / 3600_000, 'hour']
      : ms % 60_000 === 0
        ? [ms / 60_000, 'minute']
        : [Math.round(ms / 1000), 'second'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
