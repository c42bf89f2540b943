// Request rate limits: per API key (TXMAIL_RATE_LIMIT) and per account (by plan,
// TXMAIL_ACCOUNT_RATE_LIMITS), each a steady rate with bursts up to twice that. The algorithm is GCRA
// (the generic cell rate algorithm, rate-limit-gcra.ts): one number per bucket, its "theoretical arrival
// time", so the shared PostgreSQL store can apply it in one statement. Where the buckets live is the
// rate-limit store seam (db/seams.ts RateLimitStore). The figures of the tighter bucket
// are reported in the RateLimit-* headers of every authenticated response.
import type { Plan } from '../db/schema.js';
import type { RateLimitStore } from '../db/seams.js';
import { gcraParams, type Bucket, type BucketState } from '../rate-limit-gcra.js';

export interface RateDecision {
  allowed: boolean;
  /** Which bucket refused (or is tightest): the key's or the account's. */
  scope: 'key' | 'account';
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds until one request is allowed again (when refused). */
  retryAfterSeconds: number;
}

export interface RateLimits {
  /** Per API key, requests per second; 0 turns every limit off. */
  perKey: number;
  perAccount: Record<Plan, number>;
}

export class RateLimiter {
  constructor(
    private readonly limits: RateLimits,
    private readonly store: RateLimitStore,
  ) {}

  get enabled(): boolean {
    return this.limits.perKey > 0;
  }

  /**
   * Takes from `bucket` (at a key's rate) and, unless `account` is undefined, from the account's plan
   * budget. An API key's request takes both. The dashboard's sessions of an account share one bucket,
   * and only what they change (a send, a resend, a new webhook) also takes from the account's budget:
   * a person browsing the log must neither spend the servers' budget (and make their sends fail with
   * 429) nor be locked out of reading it by servers that spent it, and a session must not send more
   * than the plan allows.
   */
  async take(
    bucket: string,
    account: { id: string; plan: Plan } | undefined,
    now: number,
  ): Promise<RateDecision> {
    const buckets: (Bucket & { scope: 'key' | 'account' })[] = [
      { key: `k:${bucket}`, rate: this.limits.perKey, scope: 'key' },
      ...(account
        ? [{ key: `a:${account.id}`, rate: this.limits.perAccount[account.plan], scope: 'account' as const }]
        : []),
    ];
    const states = await this.store.take(buckets, now);
    const decisions = buckets.map((b, i) => decide(b.scope, b.rate, states[i]!, now));
    // A refusal wins; otherwise report the bucket closest to refusing.
    return (
      decisions.find((d) => !d.allowed) ?? decisions.reduce((a, b) => (b.remaining < a.remaining ? b : a))
    );
  }
}

function decide(scope: 'key' | 'account', rate: number, state: BucketState, now: number): RateDecision {
  const { intervalMs, capacity, toleranceMs } = gcraParams(rate);
  const ahead = Math.max(0, state.tat - now);
  return {
    allowed: state.allowed,
    scope,
    limit: capacity,
    remaining: Math.max(0, Math.floor((capacity * intervalMs - ahead) / intervalMs)),
    resetSeconds: Math.ceil(ahead / 1000),
    retryAfterSeconds: state.allowed ? 0 : Math.max(1, Math.ceil((ahead - toleranceMs) / 1000)),
  };
}
