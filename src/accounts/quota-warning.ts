// The monthly cap's warnings (docs/design.md §9): at 80 % and at 100 % of the plan's emails, once each per
// month. The send that reaches a threshold records the notice in its own accept transaction (the count
// is incremented one by one, so exactly one send sees each threshold); the email to the signup address
// follows the commit, through txmail itself.

import type { QuotaNoticeAt } from '../db/accept-item.js';
import type { AccountNoticeRow } from '../db/schema.js';

export type QuotaThreshold = 80 | 100;

/** The threshold this month's count has just reached, if any. */
export function quotaThresholdReached(sent: number, cap: number): QuotaThreshold | undefined {
  if (sent === cap) return 100;
  if (sent === Math.ceil(cap * 0.8)) return 80;
  return undefined;
}

/** An account notice row (account_notices). */
export type QuotaNotice = AccountNoticeRow;

/** The notice for a threshold: one id per account, month and threshold, so it is stored once. */
export function quotaNotice(
  accountId: string,
  month: string,
  threshold: QuotaThreshold,
  cap: number,
  now: number,
): QuotaNotice {
  const message =
    threshold === 100
      ? `All ${cap} emails of this month's plan are used: sends are refused until the month ends. Upgrade the plan to send more.`
      : `80 % of this month's ${cap} emails are used. Sends will be refused once all are used; upgrade the plan to send more.`;
  return {
    id: `quota-${threshold}-${accountId}-${month}`,
    account_id: accountId,
    kind: `quota_${threshold}`,
    message,
    data: JSON.stringify({ month, cap, threshold }),
    created_at: now,
  };
}

/**
 * What the accept transaction stores for the send that is the month's `sent`-th of `cap`: the notice of
 * the threshold it reaches, if any (handed to the accept writers, which keep db/ free of this policy).
 */
export const quotaNoticeAt: QuotaNoticeAt = (accountId, month, sent, cap, now) => {
  const threshold = quotaThresholdReached(sent, cap);
  return threshold && quotaNotice(accountId, month, threshold, cap, now);
};

/** The email that goes with the notice. */
export function quotaWarningMail(notice: QuotaNotice, publicUrl: string): { subject: string; html: string } {
  const { month, threshold } = JSON.parse(notice.data) as { month: string; threshold: QuotaThreshold };
  const subject =
    threshold === 100
      ? `txmail: you have used all of this month's emails (${month})`
      : `txmail: you have used 80 % of this month's emails (${month})`;
  const html = `<p>${notice.message}</p><p><a href="${publicUrl}/">Open the dashboard</a></p>`;
  return { subject, html };
}
