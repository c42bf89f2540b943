// Log retention (docs/design.md §9): messages, their events and attempts, webhook attempts and audit
// entries older than the plan keeps them are deleted, in small batches with a pause between them, so the single SQLite writer
// is never held long enough to stall accepting or delivering mail. The plan read is the current one: a downgrade applies the
// shorter retention from the next sweep on. Every worker process sweeps; deletes are idempotent.
// The same pass deletes what has expired and is never read again: sessions, device cookies' records, used or expired one-time
// tokens (verification, password reset), idempotency keys past 24 hours, sign-in attempt counts, and
// the counters of test sends of past days, and reputation counts older than anything reads (90 days:
// the longest window, TXMAIL_REPUTATION window_days, and the longest activity chart), accounts' sender
// blocks older than the longest destination-blocks window, and destination pauses a day past their end.
import type { Logger } from 'pino';
import { PLANS, usageDay } from '../accounts/plans.js';
import type { Clock } from '../clock.js';
import type { RemovedBatch, RetentionRepo } from '../db/retention-repo.js';
import type { Plan } from '../db/schema.js';
import { IDEMPOTENCY_TTL_MS } from '../messages/accept.js';
import { removableContent } from './content-grace.js';

export interface RetentionOptions {
  intervalMs: number;
  batchSize: number;
  /** Pause between batches. */
  pauseMs: number;
}

/** Days of reputation counts kept: the longest window_days and the longest activity request (?days=90). */
export const REPUTATION_COUNTS_KEPT_DAYS = 90;

/**
 * How long an account's sender block is kept (sender_block_hits): TXMAIL_DESTINATION_BLOCKS
 * window_minutes is at most a week, so an older one is never counted.
 */
export const SENDER_BLOCK_HITS_KEPT_MS = 7 * 24 * 3600_000;

/** How long an ended destination pause is kept: a day, for `txmail status` to show what just ended. */
export const DESTINATION_BLOCKS_KEPT_MS = 24 * 3600_000;

/**
 * How long an MTA-STS policy is kept past its max_age: a day, then it is no policy a failed refresh
 * could fall back on (RFC 8461 §5.1) and the next delivery fetches afresh.
 */
export const STS_POLICIES_KEPT_MS = 24 * 3600_000;

export const DEFAULT_RETENTION: RetentionOptions = { intervalMs: 60_000, batchSize: 500, pauseMs: 20 };

export class RetentionSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;
  private stopped = false;

  constructor(
    private readonly repo: RetentionRepo,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: RetentionOptions = DEFAULT_RETENTION,
  ) {}

  start(): void {
    this.stopped = false;
    const tick = () => {
      void this.sweep()
        .catch((err: unknown) => this.logger.warn({ err }, 'retention sweep failed; retrying next time'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.options.intervalMs).unref();
        });
    };
    this.timer = setTimeout(tick, 0).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** One pass over every account whose plan limits retention, then what has expired; answers how many rows went. */
  sweep(): Promise<number> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<number> {
    const now = this.clock.now();
    const logs = await this.sweepLogs(now);
    if (logs > 0) this.logger.info({ deleted: logs }, 'deleted messages past their retention');
    const sealed = await this.inBatches([(limit) => this.repo.removeSealedContent(now, limit)]);
    if (sealed > 0)
      this.logger.info({ messages: sealed }, 'removed the content of sealed messages once final');
    const content = await this.sweepContent(now);
    if (content > 0) this.logger.info({ messages: content }, "removed messages' content past its retention");
    const expired = await this.sweepExpired(now);
    if (expired > 0) this.logger.info({ deleted: expired }, 'deleted expired sessions, tokens and keys');
    return logs + sealed + content + expired;
  }

  private async sweepLogs(now: number): Promise<number> {
    let deleted = 0;
    for (const [plan, limits] of Object.entries(PLANS) as [Plan, (typeof PLANS)[Plan]][]) {
      if (limits.logRetentionMs === null) continue;
      const before = now - limits.logRetentionMs;
      let after = '';
      for (;;) {
        const accounts = await this.repo.accountsOnPlans([plan], after, 100);
        if (accounts.length === 0) break;
        for (const accountId of accounts) {
          deleted += await this.inBatches([
            (limit) => this.repo.deleteMessages(accountId, before, limit),
            (limit) => this.repo.deleteWebhookAttempts(accountId, before, limit),
            (limit) => this.repo.deleteAccountEvents(accountId, before, limit),
            (limit) => this.repo.deleteAuditEntries(accountId, before, limit),
          ]);
          if (this.stopped) return deleted;
        }
        after = accounts.at(-1)!;
      }
    }
    return deleted;
  }

  /**
   * Removes the content of messages final for longer than their account keeps it (docs/design.md §9,
   * "content retention"), account by account, in batches; after an upgrade, not that of messages final
   * before it until its grace period ends (content-grace.ts).
   */
  private async sweepContent(now: number): Promise<number> {
    let removed = 0;
    let after = '';
    const since = await this.repo.contentRetentionSince();
    for (;;) {
      const accounts = await this.repo.accountsRemovingContent(after, 100);
      if (accounts.length === 0) break;
      for (const { id, days } of accounts) {
        const final = removableContent(now, days, since);
        if (final)
          removed += await this.inBatches([(limit) => this.repo.removeContent(id, final, now, limit)]);
        if (this.stopped) return removed;
      }
      after = accounts.at(-1)!.id;
    }
    return removed;
  }

  private sweepExpired(now: number): Promise<number> {
    return this.inBatches([
      (limit) => this.repo.deleteExpiredSessions(now, limit),
      (limit) => this.repo.deleteExpiredLoginDevices(now, limit),
      (limit) => this.repo.deleteSpentTokens(now, limit),
      (limit) => this.repo.deleteExpiredIdempotencyKeys(now - IDEMPOTENCY_TTL_MS, limit),
      (limit) => this.repo.deleteExpiredAttemptCounts(now, limit),
      // Yesterday's counter is kept: another process's clock may still be a little behind ours.
      (limit) => this.repo.deletePastTestUsage(usageDay(now - 24 * 3600_000), limit),
      (limit) =>
        this.repo.deletePastReputationCounts(
          usageDay(now - REPUTATION_COUNTS_KEPT_DAYS * 24 * 3600_000),
          limit,
        ),
      (limit) => this.repo.deleteOldSenderBlockHits(now - SENDER_BLOCK_HITS_KEPT_MS, limit),
      (limit) => this.repo.deleteEndedDestinationBlocks(now - DESTINATION_BLOCKS_KEPT_MS, limit),
      (limit) => this.repo.deleteExpiredStsPolicies(now - STS_POLICIES_KEPT_MS, limit),
      // Parts of a large HTML or inbound raw text whose message was never stored; an hour is far longer
      // than writing them.
      (limit) => this.repo.deleteOrphanBodyParts(now - 3600_000, limit),
      (limit) => this.repo.deleteOrphanInboundRawParts(now - 3600_000, limit),
    ]);
  }

  /**
   * Runs each remover batch after batch until one comes back short (fewer than the batch size, or
   * `more` false from a remover that bounds its batches by bytes); answers how many rows went.
   */
  private async inBatches(removers: ((limit: number) => Promise<number | RemovedBatch>)[]): Promise<number> {
    let deleted = 0;
    for (const remove of removers) {
      for (;;) {
        if (this.stopped) return deleted;
        const limit = this.options.batchSize;
        const batch = await remove(limit);
        const { removed, more } =
          typeof batch === 'number' ? { removed: batch, more: batch >= limit } : batch;
        deleted += removed;
        if (!more) break;
        await new Promise((resolve) => setTimeout(resolve, this.options.pauseMs));
      }
    }
    return deleted;
  }
}
