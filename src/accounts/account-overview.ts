// What GET /api/account answers: where the account stands against its plan this month, its test
// sends against their daily allowance, and its reputation (ARCHITECTURE.md, "Reputation guardrails").
import type { Clock } from '../clock.js';
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { ReputationRepo } from '../db/reputation-repo.js';
import type { Account } from '../db/schema.js';
import { windowStart } from '../reputation/counts.js';
import { judgeReputation, rate, type ReputationStatus } from '../reputation/judge.js';
import type { ReputationThresholds } from '../reputation/thresholds.js';
import { nextDayStart, nextMonthStart, PLANS, usageDay, usageMonth } from './plans.js';

export interface AccountOverview {
  id: string;
  email: string;
  plan: Account['plan'];
  state: Account['state'];
  suspended: boolean;
  /** The simulator's domain (docs/API.md, "The simulator"). */
  simulator_domain: string;
  created_at: string;
  usage: { month: string; sent: number; limit: number; remaining: number; resets_at: string };
  test_sends: { day: string; sent: number; limit: number; remaining: number; resets_at: string };
  limits: {
    emails_per_month: number;
    test_sends_per_day: number;
    domains: number;
    webhooks: number;
    log_retention_hours: number | null;
  };
  counts: Record<string, number>;
  reputation: ReputationOverview;
  /** Days a final message's content is kept (content-retention.ts); null: kept. */
  content_retention_days: number | null;
}

/** Rates are fractions (0.052 = 5.2 %) over the window's final messages (docs/API.md, GET /api/account). */
export interface ReputationOverview {
  status: ReputationStatus;
  reason: string | null;
  bounce_rate: number;
  complaint_rate: number;
  messages: number;
  window_days: number;
  changed_at: string | null;
  thresholds: {
    bounce_warning: number;
    bounce_pause: number;
    complaint_warning: number;
    complaint_pause: number;
    min_messages: number;
  };
  domains: { domain: string; bounce_rate: number; complaint_rate: number; messages: number }[];
}

/** Where the reputation figures come from. */
export interface ReputationSource {
  counts: Pick<ReputationRepo, 'window' | 'windowByDomain'>;
  thresholds: ReputationThresholds;
}

/** Counts of the things a plan limits, by name (domains, webhooks, …), for one account. */
export type ResourceCounter = (accountId: string) => Promise<number>;

export class AccountOverviews {
  constructor(
    private readonly accounts: AccountsRepo,
    private readonly counters: Record<string, ResourceCounter>,
    private readonly clock: Clock,
    private readonly reputation: ReputationSource,
    /** Where the simulator's addresses are (`<kind>@simulator.<test domain>`): a sandboxed account's only mail. */
    private readonly simulatorDomain: string,
  ) {}

  async get(accountId: string): Promise<AccountOverview | undefined> {
    const account = await this.accounts.findById(accountId);
    if (!account) return undefined;
    const now = this.clock.now();
    const month = usageMonth(now);
    const limits = PLANS[account.plan];
    const day = usageDay(now);
    const sent = await this.accounts.monthUsage(account.id, month);
    const tests = await this.accounts.dayTestSends(account.id, day);
    const counts: Record<string, number> = {};
    for (const [name, count] of Object.entries(this.counters)) counts[name] = await count(account.id);
    return {
      id: account.id,
      email: account.email,
      plan: account.plan,
      state: account.state,
      suspended: account.suspended_at !== null,
      simulator_domain: this.simulatorDomain,
      created_at: new Date(account.created_at).toISOString(),
      usage: {
        month,
        sent,
        limit: limits.emailsPerMonth,
        remaining: Math.max(0, limits.emailsPerMonth - sent),
        resets_at: new Date(nextMonthStart(now)).toISOString(),
      },
      test_sends: {
        day,
        sent: tests,
        limit: limits.testSendsPerDay,
        remaining: Math.max(0, limits.testSendsPerDay - tests),
        resets_at: new Date(nextDayStart(now)).toISOString(),
      },
      limits: {
        emails_per_month: limits.emailsPerMonth,
        test_sends_per_day: limits.testSendsPerDay,
        domains: limits.domains,
        webhooks: limits.webhooks,
        log_retention_hours: limits.logRetentionMs === null ? null : limits.logRetentionMs / 3_600_000,
      },
      counts,
      reputation: await reputationOverview(account, this.reputation, now),
      content_retention_days: account.content_retention_days,
    };
  }

  /** Sets how long a final message's content is kept (PATCH /api/account); false: no such account. */
  async setContentRetention(accountId: string, days: number | null): Promise<boolean> {
    return this.accounts.setContentRetention(accountId, days);
  }
}

/** The account's reputation as GET /api/account and `txmail account show` give it. */
export async function reputationOverview(
  account: Account,
  source: ReputationSource,
  now: number,
): Promise<ReputationOverview> {
  const t = source.thresholds;
  const from = windowStart(now, t.windowDays);
  const [window, domains] = await Promise.all([
    source.counts.window(account.id, from),
    source.counts.windowByDomain(account.id, from),
  ]);
  // The rates as the guard computes them; the status is the one it last set (a pause holds until the
  // operator resumes, whatever the window says now).
  const verdict = judgeReputation(window, t);
  return {
    status: account.reputation_status,
    reason: account.reputation_reason,
    bounce_rate: verdict.bounceRate,
    complaint_rate: verdict.complaintRate,
    messages: window.messages,
    window_days: t.windowDays,
    changed_at:
      account.reputation_changed_at === null ? null : new Date(account.reputation_changed_at).toISOString(),
    thresholds: {
      bounce_warning: t.bounceWarn,
      bounce_pause: t.bouncePause,
      complaint_warning: t.complaintWarn,
      complaint_pause: t.complaintPause,
      min_messages: t.minMessages,
    },
    domains: domains.map((d) => ({
      domain: d.domain,
      bounce_rate: rate(d.bounced, d.messages),
      complaint_rate: rate(d.complained, d.messages),
      messages: d.messages,
    })),
  };
}
