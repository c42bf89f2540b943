// What the accept transaction takes and gives back (the accept seam, seams.ts AcceptTransaction): a
// message with its first event and what to check and count for it; per item, what became of it.
import type { AccountNoticeRow, NewEvent, NewMessage } from './schema.js';
import type { SuppressionFacts } from './suppressions-repo.js';

export interface AcceptItem {
  message: NewMessage;
  /** The message's HTML: stored apart from its row (message_bodies), in the same transaction. */
  html: string;
  /**
   * Set when the HTML was written beforehand in this many parts (db/sqlite/body-parts.ts, by the event
   * loop's SQLite writer): `html` is then ''.
   */
  bodyParts?: number;
  event: NewEvent;
  /**
   * The content carries a sign-in link (txmail's sealed mail): `html` is sealed (messages/sealed-html.ts)
   * and stored marked so (migration 041), and the message listed in sealed_messages in the same
   * transaction, so its content is removed once it is final (migration 036).
   */
  sealed?: true;
  /** Counts toward the monthly cap (real sends); the cap and the month it applies to. */
  quota?: { month: string; cap: number };
  /** Counts toward the daily allowance of test sends; the allowance and the UTC day (`YYYY-MM-DD`). */
  testQuota?: { day: string; cap: number };
  idempotency?: { key: string; requestHash: string; response: string; expiredBefore: number };
  /**
   * Refuse the send if this address (lower case) is suppressed for the account. Checked inside the
   * transaction that stores the message, so a suppression committed before it is always seen.
   */
  refuseSuppressed?: string;
}

export type AcceptOutcome =
  /** `warned`: this send reached a quota threshold and the notice it made was stored (see QuotaNoticeAt). */
  | { kind: 'accepted'; warned?: AccountNoticeRow }
  /** The key exists (unexpired) for this account: the caller looks up what it holds. */
  | { kind: 'idempotency_conflict' }
  | { kind: 'quota_exceeded' }
  | { kind: 'test_quota_exceeded' }
  | { kind: 'suppressed'; suppression: SuppressionFacts };

/**
 * The account notice a send stores when its place in the month (`sent` of `cap`) reaches a threshold,
 * or undefined. The accept transaction asks it for each counted send and stores what it returns in the
 * same transaction (once: the notice's id is its key). What the thresholds are and what the notice says
 * is the accounts' business (accounts/quota-warning.ts), handed in by whoever builds the writer.
 */
export type QuotaNoticeAt = (
  accountId: string,
  month: string,
  sent: number,
  cap: number,
  now: number,
) => AccountNoticeRow | undefined;
