// What GET /api/account answers: where the account stands against its plan this month, and its test
// sends against their daily allowance.
import type { Clock } from '../clock.js';
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { Account } from '../db/schema.js';
import { nextDayStart, nextMonthStart, PLANS, usageDay, usageMonth } from './plans.js';

export interface AccountOverview {
  id: string;
  email: string;
  plan: Account['plan'];
  state: Account['state'];
  suspended: boolean;
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
}

/** Counts of the things a plan limits, by name (domains, webhooks, …), for one account. */
export type ResourceCounter = (accountId: string) => Promise<number>;

export class AccountOverviews {
  constructor(
    private readonly accounts: AccountsRepo,
    private readonly counters: Record<string, ResourceCounter>,
    private readonly clock: Clock,
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
    };
  }
}
