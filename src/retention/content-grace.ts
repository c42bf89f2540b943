// The content retention's grace after the upgrade that began it (docs/upgrading.md; migration 032): the
// content of messages that were final before content retention began is kept GRACE_DAYS after it began,
// however old they are, so the first sweeps after an upgrade do not remove at once what had been kept
// until then; messages final since follow the account's setting from the start. Pure: the time is
// passed in.

/** How long after the upgrade the content of messages final before it is kept. */
export const CONTENT_GRACE_DAYS = 7;
const DAY_MS = 24 * 3600_000;

/**
 * The final messages whose content the sweep may remove at `now` for an account that keeps it `days`:
 * final before `before` and, while the grace lasts, not before `from`; undefined: none yet.
 * `retentionSince`: when content retention began on this database (undefined: with the database).
 */
export function removableContent(
  now: number,
  days: number,
  retentionSince: number | undefined,
): { from: number | undefined; before: number } | undefined {
  const before = now - days * DAY_MS;
  if (retentionSince === undefined || now >= retentionSince + CONTENT_GRACE_DAYS * DAY_MS) {
    return { from: undefined, before };
  }
  return retentionSince < before ? { from: retentionSince, before } : undefined;
}

/**
 * When the content of a message final at `finalAt`, which the account's setting removes at `due`, is
 * removed: not before the grace ends when it was final before content retention began.
 */
export function contentRemovedAfterGrace(
  due: number,
  finalAt: number,
  retentionSince: number | undefined,
): number {
  if (retentionSince === undefined || finalAt >= retentionSince) return due;
  return Math.max(due, retentionSince + CONTENT_GRACE_DAYS * DAY_MS);
}
