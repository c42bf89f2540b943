// `txmail account show --account E`: the operator's view of an account's reputation (ARCHITECTURE.md,
// "Reputation guardrails"): its state and why, the rates against the thresholds, per sending domain, and
// its activity per day over the last 30 days, the same figures as GET /api/account and
// GET /api/account/activity.
import { reputationOverview, type ReputationOverview } from '../accounts/account-overview.js';
import type { ActivityDay } from '../db/reputation-repo.js';
import type { Account } from '../db/schema.js';
import type { Core } from '../roles/core.js';
import { utcDay } from '../clock.js';
import { windowStart } from './counts.js';
import { percent } from './judge.js';

export const REPORT_DAYS = 30;

export interface AccountReport {
  json: {
    id: string;
    email: string;
    suspended: boolean;
    reputation: ReputationOverview;
    activity: ActivityDay[];
  };
  text: string;
}

export async function accountReport(
  s: Pick<Core, 'repos' | 'config' | 'clock'>,
  account: Account,
): Promise<AccountReport> {
  const now = s.clock.now();
  const [reputation, activity] = await Promise.all([
    reputationOverview(account, { counts: s.repos.reputation, thresholds: s.config.reputation }, now),
    s.repos.reputation.activity(account.id, windowStart(now, REPORT_DAYS), utcDay(now)),
  ]);
  const json = {
    id: account.id,
    email: account.email,
    suspended: account.suspended_at !== null,
    reputation,
    activity,
  };
  return { json, text: formatReport(json) };
}

function formatReport(r: AccountReport['json']): string {
  const rep = r.reputation;
  const t = rep.thresholds;
  const lines = [
    `${r.email} (${r.id})${r.suspended ? '  SUSPENDED by the operator' : ''}`,
    `reputation: ${rep.status}${rep.changed_at ? ` since ${rep.changed_at}` : ''}`,
  ];
  if (rep.reason) lines.push(`  why: ${rep.reason}`);
  if (rep.status === 'paused')
    lines.push('  sends are refused and queued mail is held; lift with: txmail account resume');
  lines.push(
    `window: last ${rep.window_days} days, ${rep.messages} final messages` +
      (rep.messages < t.min_messages ? ` (judged from ${t.min_messages})` : ''),
    `  bounce rate     ${percent(rep.bounce_rate).padStart(8)}   warning ${percent(t.bounce_warning)}, pause ${percent(t.bounce_pause)}`,
    `  complaint rate  ${percent(rep.complaint_rate).padStart(8)}   warning ${percent(t.complaint_warning)}, pause ${percent(t.complaint_pause)}`,
  );
  if (rep.domains.length > 0) {
    lines.push('per sending domain:');
    for (const d of rep.domains) {
      lines.push(
        `  ${d.domain}  ${d.messages} messages, bounces ${percent(d.bounce_rate)}, complaints ${percent(d.complaint_rate)}`,
      );
    }
  }
  lines.push(
    `activity, last ${r.activity.length} days (UTC):`,
    '  date          sent  delivered  bounced  complained',
  );
  for (const d of r.activity) {
    lines.push(
      `  ${d.date}  ${String(d.sent).padStart(6)}  ${String(d.delivered).padStart(9)}  ${String(d.bounced).padStart(7)}  ${String(d.complained).padStart(10)}`,
    );
  }
  return lines.join('\n');
}
