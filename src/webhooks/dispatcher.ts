// The webhook dispatcher, run by the worker role: claims due pushes from the outbox under a lease, sends
// each (webhook-sender.ts), and records the attempt with its consequence: delivered, retried on the
// schedule (retry-policy.ts), or final. Safe with any number of dispatchers in any number of processes,
// like the delivery worker: a push is leased to one at a time, and a dead one's leases expire.
// The claim is fair (db/fair-claim.ts): the account with the fewest pushes in flight goes first, and
// neither an endpoint nor an account has more than its cap in flight across every dispatcher, so one
// account's slow endpoints or long backlog cannot fill a dispatcher's slots (dispatch-limits.ts).
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { WebhookAttemptRecord, WebhookJob, WebhookOutboxRepo } from '../db/webhook-outbox-repo.js';
import type { AccountNoticeRow, WebhookOutboxRow } from '../db/schema.js';
import { GroupCommit } from '../group-commit.js';
import { newId } from '../ids.js';
import { eventPayload } from './payload.js';
import { decidePush } from './decide-push.js';
import { PUSHES_PER_ACCOUNT, PUSHES_PER_DISPATCHER, PUSHES_PER_ENDPOINT } from './dispatch-limits.js';
import { WEBHOOK_RETRY_SCHEDULE_MS } from './retry-policy.js';
import type { WebhookSender } from './webhook-sender.js';

export interface DispatcherOptions {
  /** Pushes in flight at once in this dispatcher. */
  concurrency: number;
  /** Pushes of one endpoint in flight at once across every dispatcher (the claim enforces it). */
  perEndpoint: number;
  /**
   * Pushes of one account in flight at once across every dispatcher (the claim enforces it). Below
   * `concurrency`, one account never holds all of this dispatcher's slots.
   */
  perAccount: number;
  /** How long a claim lasts: longer than a push can take (15 s timeout + DNS). */
  leaseMs: number;
  /** Longest sleep between looks at the outbox (other processes record events too). */
  pollMs: number;
  /** Delay before each attempt; the first is normally 0. */
  schedule: readonly number[];
  /** The lease owner id: the process's (process-registry.ts) in a service, else one of its own. */
  owner?: string;
  /** False while this process may be counted dead (process-registry.ts): claim nothing new. */
  canClaim?: () => boolean;
}

export const DEFAULT_DISPATCHER_OPTIONS: DispatcherOptions = {
  concurrency: PUSHES_PER_DISPATCHER,
  perEndpoint: PUSHES_PER_ENDPOINT,
  perAccount: PUSHES_PER_ACCOUNT,
  leaseMs: 60_000,
  pollMs: 1000,
  schedule: WEBHOOK_RETRY_SCHEDULE_MS,
};

/** Told after an endpoint was disabled by the dispatcher (to e-mail the account). */
export type OnEndpointDisabled = (job: WebhookJob, notice: AccountNoticeRow) => Promise<void>;

export class WebhookDispatcher {
  readonly id: string;
  private running = false;
  private readonly inFlight = new Set<Promise<void>>();
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private loop: Promise<void> | undefined;
  /** Pushes finishing together are recorded in one transaction (one fsync on SQLite, not one each). */
  private readonly recorder: GroupCommit<WebhookAttemptRecord, boolean>;

  constructor(
    private readonly outbox: WebhookOutboxRepo,
    private readonly sender: WebhookSender,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly onDisabled: OnEndpointDisabled,
    private readonly options: DispatcherOptions = DEFAULT_DISPATCHER_OPTIONS,
  ) {
    this.id = options.owner ?? `webhooks-${newId()}`;
    this.recorder = new GroupCommit((records) => outbox.recordMany(records), { lingerMs: 5 });
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Events were recorded: look at the outbox now instead of at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.loop;
    await Promise.all(this.inFlight);
    await this.outbox.releaseAll(this.id).catch(() => undefined);
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      const free = this.options.concurrency - this.inFlight.size;
      let claimed: WebhookOutboxRow[] = [];
      let jobs: WebhookJob[] = [];
      let next: number | undefined;
      try {
        // A read first: the worker wakes this loop after every commit of delivery results, and most of
        // those have no push waiting. A claim is a write (on SQLite it would queue behind the worker's).
        next = await this.outbox.nextDue();
        const now = this.clock.now();
        // canClaim: false while this process may be counted dead (process-registry.ts).
        const mayClaim = this.options.canClaim?.() ?? true;
        if (free > 0 && mayClaim && next !== undefined && next <= now) {
          claimed = await this.outbox.claimDue(this.id, now, now + this.options.leaseMs, free, {
            perEndpoint: this.options.perEndpoint,
            perAccount: this.options.perAccount,
          });
          jobs = await this.outbox.jobs(claimed);
        }
      } catch (err) {
        this.logger.error({ err }, 'could not claim webhook pushes; retrying');
      }
      for (const job of jobs) this.track(this.process(job));
      if (claimed.length === free && free > 0) continue;
      if (this.woken) continue;
      const wait =
        next === undefined || this.inFlight.size >= this.options.concurrency
          ? this.options.pollMs
          : Math.max(0, Math.min(this.options.pollMs, next - this.clock.now()));
      // Due now but leased by another dispatcher (or just claimed here): look again at the next poll.
      await this.sleep(wait === 0 && claimed.length === 0 ? this.options.pollMs : wait);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        done();
      };
    });
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => {
      this.inFlight.delete(p);
      this.wake();
    });
  }

  private async process(job: WebhookJob): Promise<void> {
    try {
      const record = await this.attempt(job);
      const recorded = await this.recorder.submit(record);
      if (!recorded) {
        this.logger.warn({ outboxId: job.outbox.id }, 'webhook lease lost before the attempt was recorded');
        return;
      }
      if (record.disable) await this.onDisabled(job, record.disable.notice);
    } catch (err) {
      // The lease expires and the push is tried again: at worst a duplicate, never a loss.
      this.logger.error({ err, outboxId: job.outbox.id }, 'webhook push failed unexpectedly');
    }
  }

  private async attempt(job: WebhookJob): Promise<WebhookAttemptRecord> {
    const { outbox, webhook } = job;
    const base = { outboxId: outbox.id, owner: this.id };
    if (webhook.enabled !== 1) {
      // Disabled after this push was queued: nothing is sent; a replay sends it once re-enabled.
      return {
        ...base,
        status: 'skipped',
        nextAttemptAt: null,
        attempts: outbox.attempts,
        attempt: undefined,
      };
    }
    const body = JSON.stringify(eventPayload(job));
    const result = await this.sender.send(webhook, job.event.id, body);
    const attempts = outbox.attempts + 1;
    const now = this.clock.now();
    const decision = decidePush(result, attempts, now, this.options.schedule);
    const record: WebhookAttemptRecord = {
      ...base,
      status: decision.status,
      nextAttemptAt: decision.nextAttemptAt,
      attempts,
      attempt: {
        id: newId(),
        webhook_id: webhook.id,
        account_id: webhook.account_id,
        event_id: job.event.id,
        event_type: job.event.type,
        attempt: attempts,
        started_at: result.startedAt,
        duration_ms: result.durationMs,
        success: decision.status === 'delivered' ? 1 : 0,
        status_code: result.statusCode,
        response: result.response,
        error: result.error ?? null,
      },
    };
    if (decision.disable) {
      record.disable = {
        webhookId: webhook.id,
        reason: decision.disable,
        notice: {
          id: newId(),
          account_id: webhook.account_id,
          kind: 'webhook_disabled',
          message: `The webhook endpoint ${webhook.url} was disabled: ${decision.disable}`,
          data: JSON.stringify({ webhook_id: webhook.id, url: webhook.url, event_id: job.event.id }),
          created_at: now,
        },
      };
    }
    return record;
  }
}
