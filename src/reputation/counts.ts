// What one state change of a message adds to its account's reputation counts (ARCHITECTURE.md,
// "Reputation counts"; stored by db/reputation-repo.ts). Pure: the message's state before the change and
// the change itself come in. The counts are kept as the changes happen, in the transaction that records
// each, so reading a rate never scans the events.
import { countsAgainstReputation } from '../bounce/categories.js';
import { utcDay } from '../clock.js';
import { eventCategory } from '../db/event-category.js';
import type { MessageRow, MessageStatus } from '../db/schema.js';

/** The columns of reputation_counts a change adds to. */
export interface Counts {
  /** Activity (never reset). */
  sent: number;
  delivered: number;
  bounced: number;
  complained: number;
  /** The rolling window (zeroed when an operator resumes the account). */
  final: number;
  badBounces: number;
  spamComplaints: number;
}

/** Counts to add to one row: an account's mail from one sending domain on one UTC day. */
export interface ReputationDelta extends Counts {
  accountId: string;
  /** The message's from_domain. */
  domain: string;
  /** 'YYYY-MM-DD', UTC. */
  day: string;
}

export const NO_COUNTS: Readonly<Counts> = {
  sent: 0,
  delivered: 0,
  bounced: 0,
  complained: 0,
  final: 0,
  badBounces: 0,
  spamComplaints: 0,
};

const COUNT_FIELDS = Object.keys(NO_COUNTS) as (keyof Counts)[];

/** The UTC day `days` days before (negative: after) the day of `ms`. */
export function dayBefore(ms: number, days: number): string {
  return utcDay(ms - days * 86_400_000);
}

/**
 * The first day of a rolling window of `windowDays` days that ends today (today included): the UTC day
 * windowDays − 1 days before today.
 */
export function windowStart(now: number, windowDays: number): string {
  return dayBefore(now, windowDays - 1);
}

/** The category of a spam complaint (an unsubscribe's is `unsubscribe`): bounce/categories.ts. */
export const SPAM_COMPLAINT = 'complaint';

/** The statuses a message ends in (it leaves the queue for good). */
const FINAL_STATUSES: readonly MessageStatus[] = ['delivered', 'bounced', 'failed', 'complained'];

/** Whether a message in this status has ended, and so joined its account's window (`final`). */
export function isFinalStatus(status: MessageStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

function isQueued(status: MessageStatus): boolean {
  return status === 'queued' || status === 'deferred';
}

/**
 * What a delivery worker's record adds, for a record that was applied (the message moved out of a
 * queued status: queue-repo.ts). `before`: the message as claimed (its attempts before this record);
 * `after`: the record. A message is `sent` the first time it leaves the queue: its first counted
 * attempt (delivered, deferred or bounced) or, without one, its first final decision that txmail made
 * about sending it (unsendable). One that expired without ever being attempted (held by a paused
 * account, a paused destination, a long queue) was never sent: it is final but not `sent`. Delivered,
 * bounced and failed messages reach a final state; a bounce whose category says the address is bad
 * (bounce/categories.ts) counts against the list.
 */
export function deliveryCounts(
  before: { attempts: number },
  after: { status: MessageStatus; counted: boolean },
  category: string | null,
): Counts | undefined {
  const final = isFinalStatus(after.status);
  const c: Counts = { ...NO_COUNTS };
  const expiredUnattempted = !after.counted && category === 'expired';
  if (before.attempts === 0 && (after.counted || (final && !expiredUnattempted))) c.sent = 1;
  if (final) c.final = 1;
  if (after.status === 'delivered') c.delivered = 1;
  if (after.status === 'bounced') {
    c.bounced = 1;
    if (countsAgainstReputation(category)) c.badBounces = 1;
  }
  return isEmpty(c) ? undefined : c;
}

/**
 * The delta of a delivery worker's record (its `reputation` field, queue-repo.ts AttemptRecord), stored
 * only if the record is applied: on the message's account and from_domain, on the UTC day of the
 * record. The category is that of the record's events, as the message will keep it.
 */
export function deliveryDelta(
  message: Pick<MessageRow, 'account_id' | 'from_domain' | 'attempts'>,
  record: {
    status: MessageStatus;
    counted: boolean;
    now: number;
    events: readonly { data: Record<string, unknown> }[];
  },
): ReputationDelta | undefined {
  const counts = deliveryCounts(message, record, eventCategory(record.events));
  return counts && delta(message.account_id, message.from_domain, record.now, counts);
}

/** Counts placed on their row. */
export function delta(accountId: string, domain: string, now: number, counts: Counts): ReputationDelta {
  return { accountId, domain, day: utcDay(now), ...counts };
}

/**
 * What a bounce or complaint the receiver recorded counts as, decided from the report alone
 * (inbound/decide-effects.ts). The counts themselves also depend on the message's status at the moment
 * the change is stored (inboundCounts), which the receiver's transaction reads.
 */
export type InboundCount =
  | { kind: 'bounce'; /** The category says the address is bad. */ badAddress: boolean }
  | { kind: 'complaint'; /** A spam complaint (category `complaint`), not an unsubscribe. */ spam: boolean };

/**
 * What a bounce or complaint adds, given the message's status and attempts just before it is stored.
 * A message still in the queue reaches a final state (and is `sent` if it had never left the queue:
 * a relay that accepted and bounced it before the worker recorded its attempt); a message already
 * final was counted then: a bounce after delivery adds a bounce but no final message, a complaint after
 * delivery a complaint. An unsubscribe is counted as neither a complaint nor a spam complaint: the
 * recipient asked to stop receiving mail, which says nothing against the sender's list (it still ends a
 * message still in the queue). Nothing for a test message, a bounce of a message already bounced, or a
 * complaint about a message already complained about, except a spam complaint after an unsubscribe:
 * the message's category says whether its complaint so far was a spam complaint (`complaint`), and
 * only one is counted per message.
 */
export function inboundCounts(
  count: InboundCount,
  before: { status: MessageStatus; attempts: number; category: string | null },
): Counts | undefined {
  if (before.status === 'test') return undefined;
  if (count.kind === 'bounce' && before.status === 'bounced') return undefined;
  if (count.kind === 'complaint' && before.status === 'complained') {
    if (!count.spam || before.category === SPAM_COMPLAINT) return undefined;
  }
  const c: Counts = { ...NO_COUNTS };
  if (isQueued(before.status)) {
    c.final = 1;
    if (before.attempts === 0) c.sent = 1;
  }
  if (count.kind === 'bounce') {
    c.bounced = 1;
    if (count.badAddress) c.badBounces = 1;
  } else if (count.spam) {
    c.complained = 1;
    c.spamComplaints = 1;
  }
  return isEmpty(c) ? undefined : c;
}

/**
 * Deltas summed per row (account, day, domain), in the order of their keys: one upsert per row for a
 * whole batch of records, and two transactions locking the same rows lock them in the same order
 * (PostgreSQL: no deadlock).
 */
export function sumDeltas(deltas: readonly ReputationDelta[]): ReputationDelta[] {
  const rows = new Map<string, ReputationDelta>();
  for (const d of deltas) {
    const key = `${d.accountId}\u0000${d.day}\u0000${d.domain}`;
    const row = rows.get(key);
    if (!row) {
      rows.set(key, { ...d });
      continue;
    }
    for (const f of COUNT_FIELDS) row[f] += d[f];
  }
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

function isEmpty(c: Counts): boolean {
  return COUNT_FIELDS.every((f) => c[f] === 0);
}
