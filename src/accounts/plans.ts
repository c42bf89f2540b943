// The plans and their limits (docs/design.md §9). One place; everything that enforces a limit reads it here.
import { utcDay } from '../clock.js';
import type { Plan } from '../db/schema.js';

export interface PlanLimits {
  emailsPerMonth: number;
  domains: number;
  webhooks: number;
  /**
   * Test sends (POST /api/email/send/test) per UTC day. They skip the monthly cap, but each one is stored
   * like a message: without this allowance a free account could fill the disk.
   */
  testSendsPerDay: number;
  /** How long messages and their events are kept; null = permanently. */
  logRetentionMs: number | null;
  /**
   * The account's weight in the delivery queue's turn (db/queue-repo.ts): while accounts compete for the
   * workers, each gets slots in proportion to it. An account with nothing in delivery still goes before
   * a busy one of any plan.
   */
  deliveryShare: number;
}

export const PLANS: Record<Plan, PlanLimits> = {
  free: {
    emailsPerMonth: 1_000,
    domains: 1,
    webhooks: 0,
    testSendsPerDay: 100,
    logRetentionMs: 48 * 3600_000,
    deliveryShare: 1,
  },
  pro: {
    emailsPerMonth: 10_000,
    domains: 3,
    webhooks: 3,
    testSendsPerDay: 1_000,
    logRetentionMs: null,
    deliveryShare: 2,
  },
  scale: {
    emailsPerMonth: 100_000,
    domains: 10,
    webhooks: 10,
    testSendsPerDay: 10_000,
    logRetentionMs: null,
    deliveryShare: 4,
  },
};

export const PLAN_NAMES = Object.keys(PLANS) as Plan[];

export function isPlan(value: string): value is Plan {
  return (PLAN_NAMES as string[]).includes(value);
}

/** The calendar month (UTC) a moment falls in, `YYYY-MM`: the unit of the monthly quota. */
export function usageMonth(at: number): string {
  // Every send asks; the answer changes once a month.
  if (lastMonth && at >= lastMonth.from && at < lastMonth.to) return lastMonth.month;
  const d = new Date(at);
  const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  lastMonth = { from, to: nextMonthStart(at), month: d.toISOString().slice(0, 7) };
  return lastMonth.month;
}
let lastMonth: { from: number; to: number; month: string } | undefined;

/** The first millisecond of the next calendar month (UTC): when a spent quota refills. */
export function nextMonthStart(at: number): number {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** The UTC day a moment falls in, `YYYY-MM-DD`: the unit of the test sends' allowance. */
export function usageDay(at: number): string {
  return utcDay(at);
}

/** The first millisecond of the next UTC day: when a spent allowance of test sends refills. */
export function nextDayStart(at: number): number {
  return (Math.floor(at / DAY_MS) + 1) * DAY_MS;
}
const DAY_MS = 24 * 3600_000;
