// How long a message's content (its HTML and the bytes sent) is kept once the message is final
// (docs/design.md §9): private by default, so one-time codes and reset links do not sit in the log
// for the plan's whole retention. The account sets it (PATCH /api/account); null keeps content.

/** A new account's setting, and every account's when the setting arrived. */
export const DEFAULT_CONTENT_RETENTION_DAYS = 30;
/** The longest setting short of keeping content: ten years. */
export const MAX_CONTENT_RETENTION_DAYS = 3650;

/** When content of a message final since `finalAt` goes, or null when the account keeps it. */
export function contentRemovalAt(finalAt: number, days: number | null): number | null {
  return days === null ? null : finalAt + days * 24 * 3600_000;
}
