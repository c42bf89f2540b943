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
import type { AccountNoticeRow } from '../db/schema.js';
import { GroupCommit } from '../group-commit.js';
import { newId } from '../ids.js';
import { LeaseLoop } from '../lease-loop.js';
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
  /** Claims, wakes and leases (lease-loop.ts), shared with the delivery worker and inbound recovery. */
  private readonly loop: LeaseLoop<WebhookJob>;
  /** When the next push is due, as the latest claim read it (undefined: none queued, or unread). */
  private next: number | undefined;
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
    // No linger: a push holds its slot, and its endpoint's (PUSHES_PER_ENDPOINT), until its record
    // commits, and a record's commit is cheap (on SQLite without an fsync, db/unsynced-commits.ts; on
    // PostgreSQL concurrent commits share their WAL flushes), so waiting for company slowed every
    // endpoint for little. With 5 ms, bench/e2e --webhook pushed 427-432 a second to
    // its one endpoint, the last 7.0 s after the last delivery; without, 670-678, 2.1 s after
    // (docs/benchmarks.md, "With webhooks on"). Pushes finishing in the same turn still share a commit.
    this.recorder = new GroupCommit((records) => outbox.recordMany(records));
    this.loop = new LeaseLoop<WebhookJob>({
      concurrency: options.concurrency,
      pollMs: options.pollMs,
      // Every finished push frees a slot another account's push may be waiting for (the claim is fair).
      refillAt: 1,
      // canClaim: false while this process may be counted dead (process-registry.ts).
      canClaim: options.canClaim,
      key: (job) => job.outbox.id,
      claim: (slots) => this.claim(slots),
      run: (job) => this.process(job),
      nextWaitMs: async (claimed) => {
        if (this.next === undefined) return this.options.pollMs;
        const wait = this.next - this.clock.now();
        // Due now but leased by another dispatcher (or just claimed here): look again at the next poll.
        return wait <= 0 && claimed === 0 ? this.options.pollMs : wait;
      },
      claimFailed: (err) => this.logger.error({ err }, 'could not claim webhook pushes; retrying'),
      release: async () => {
        await this.outbox.releaseAll(this.id).catch(() => undefined);
      },
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Events were recorded: look at the outbox now instead of at the next poll. */
  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async claim(slots: number): Promise<WebhookJob[]> {
    this.next = undefined;
    // A read first: the worker wakes this loop after every commit of delivery results, and most of
    // those have no push waiting. A claim is a write (on SQLite it would queue behind the worker's).
    this.next = await this.outbox.nextDue();
    const now = this.clock.now();
    if (this.next === undefined || this.next > now) return [];
    const claimed = await this.outbox.claimDue(this.id, now, now + this.options.leaseMs, slots, {
      perEndpoint: this.options.perEndpoint,
      perAccount: this.options.perAccount,
    });
    return this.outbox.jobs(claimed);
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
