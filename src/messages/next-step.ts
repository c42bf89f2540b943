// "What happens next" for a message still in the queue (docs/API.md, GET /api/emails/:id `next`): why
// it waits and when it is tried next, from what the log holds. Pure: the clock's now comes in.
//
// A destination's pause or limit moves a message's next attempt without an attempt or an event (the
// worker's "paused" outcome), so a message not yet attempted whose attempt is not due is waiting for
// its destination; one attempted is waiting for its retry, throttled when the server asked to slow
// down (category rate_limited).
import type { MessageRow } from '../db/schema.js';

export type NextReason =
  'delivering' | 'due' | 'destination_paused' | 'throttled' | 'retry' | 'account_paused';

export interface NextStep {
  /** When it is tried next (ISO 8601). */
  at: string;
  reason: NextReason;
  /** The same in words, with the expiry. */
  why: string;
  /** The attempt that comes next (1: the first). */
  attempt: number;
  /** When txmail gives up on it (its domain's expire_after, or the retry period). */
  expires_at: string;
}

export function nextStep(
  m: Pick<MessageRow, 'status' | 'attempts' | 'next_attempt_at' | 'lease_expires_at' | 'category'>,
  facts: { deadline: number; accountPaused: boolean },
  now: number,
): NextStep | null {
  if ((m.status !== 'queued' && m.status !== 'deferred') || m.next_attempt_at === null) return null;
  const iso = (t: number) => new Date(t).toISOString();
  const expires = `; it expires at ${iso(facts.deadline)}`;
  const attempt = m.attempts + 1;
  /** `why` is followed by the expiry, unless it says it itself. */
  const step = (at: number, reason: NextReason, why: string, saysExpiry = false): NextStep => ({
    at: iso(at),
    reason,
    why: saysExpiry ? why : `${why}${expires}`,
    attempt,
    expires_at: iso(facts.deadline),
  });
  const at = Math.max(m.next_attempt_at, now);
  if (m.lease_expires_at !== null && m.lease_expires_at > now)
    return step(
      now,
      'delivering',
      // Past its deadline only when its data went before it: the attempt waits for the server's reply
      // to its final "." (ARCHITECTURE.md, "Expiry"), and may still end delivered.
      now >= facts.deadline
        ? `attempt ${attempt} is under way: its data was sent before its deadline and it waits for the server's reply`
        : `attempt ${attempt} is under way`,
    );
  if (facts.accountPaused)
    return step(
      at,
      'account_paused',
      "held: this account's sending is paused (its bounce or complaint rate); it waits until the operator resumes the account",
    );
  if (m.next_attempt_at <= now) return step(now, 'due', `attempt ${attempt} is due now`);
  const reason = waitReason(m);
  // Its deadline comes first (lowered since the wait was set: a PATCH of expire_after): no attempt
  // follows; it fails then, without one (ARCHITECTURE.md, "Expiry").
  if (m.next_attempt_at >= facts.deadline)
    return step(
      facts.deadline,
      reason,
      `waiting for its ${m.attempts === 0 ? 'destination' : 'retry'}, due after its deadline: it fails as expired at ${iso(facts.deadline)}, without another attempt`,
      true,
    );
  if (reason === 'destination_paused')
    return step(
      at,
      'destination_paused',
      `its destination is paused or at its limits (connections, messages a second): the first attempt waits until ${iso(at)}`,
    );
  if (reason === 'throttled')
    return step(
      at,
      'throttled',
      `throttled: the receiving server asked to slow down; retry ${m.attempts} (attempt ${attempt}) at ${iso(at)}`,
    );
  return step(
    at,
    'retry',
    `retry ${m.attempts} (attempt ${attempt}) at ${iso(at)} after a temporary failure${m.category ? ` (${m.category})` : ''}`,
  );
}

/** Why a message not yet due waits: its destination (never attempted), a throttle, or its retry. */
function waitReason(m: Pick<MessageRow, 'attempts' | 'category'>): NextReason {
  if (m.attempts === 0) return 'destination_paused';
  return m.category === 'rate_limited' ? 'throttled' : 'retry';
}
