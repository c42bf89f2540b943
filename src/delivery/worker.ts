// The delivery worker: claims due messages under a lease, delivers each, records the outcome.
// Any number of workers (in any number of processes) can share one database: a message is leased to
// one worker at a time, and a worker that dies leaves leases that expire and return the message.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import {
  DELIVERY_CAPS,
  IDLE_ACCOUNT_CAPS,
  type AttemptRecord,
  type QueueRepo,
  type RecordOutcome,
} from '../db/queue-repo.js';
import { GroupCommit } from '../group-commit.js';
import type { DeliveryAttemptRow, MessageRow, MessageWithBody } from '../db/schema.js';
import { databaseUnavailable } from '../db/unavailable.js';
import { newId } from '../ids.js';
import { LeaseLoop, type ClaimPool } from '../lease-loop.js';
import { AttemptNotStarted, type Deliverer } from './deliver-message.js';
import type { AttemptResult } from './transport.js';
import { DISABLED_REPEAT_WINDOW_MS } from '../bounce/categories.js';
import {
  decideNext,
  expiredUnattempted,
  failedPermanently,
  leftToSchedule,
  type NextState,
} from './outcome.js';
import type { RetryPolicy } from './retry-schedule.js';
import { deliveryDelta } from '../reputation/counts.js';
import { HOLD_MS } from '../reputation/thresholds.js';
import { DEFAULT_RETRY, messageDeadline } from './retry-schedule.js';

export interface WorkerOptions {
  /** Messages in delivery at once. */
  concurrency: number;
  /**
   * After this long, an attempt still waiting (on DNS, a connection, a greeting, a reply) stands aside:
   * it goes on, and another message takes its slot (lease-loop.ts), so that receiving servers that
   * never answer do not hold every slot for their timeouts while a password reset waits. Default 2 s:
   * an attempt to a server that answers takes well under that.
   */
  asideAfterMs?: number;
  /** Attempts that may stand aside at once; by default four times `concurrency`. */
  asideLimit?: number;
  /**
   * How long a claim lasts before it is renewed (renewLeases): longer than most attempts take, so that
   * renewals are rare; the backstop for a worker that dies unseen by the registry of live processes.
   */
  leaseMs: number;
  /** Longest sleep between looks at the queue (other processes may have queued mail). */
  pollMs: number;
  retry: RetryPolicy;
  /** The lease owner id: the process's (process-registry.ts) in a service, else one of its own. */
  owner?: string;
  /** False while this process may be counted dead (process-registry.ts): claim nothing new. */
  canClaim?: () => boolean;
  /**
   * How long stop() lets deliveries in flight finish (TXMAIL_WORKER_STOP_SECONDS); those still going
   * are then given up, their leases released. Absent: as long as they take (up to an attempt's 5
   * minutes and its final reply's 10).
   */
  stopGraceMs?: number;
  /**
   * Made before each claim (process-registry.ts leaseCheck): whether the leases it takes are still this
   * process's; asked before a message's data is sent and before its end (DeliveryJob.mayFinish).
   */
  leaseCheck?: () => () => boolean;
  /**
   * True for a message to hold rather than attempt: a paused account's customer mail (ARCHITECTURE.md,
   * "Reputation guardrails"). Asked for every message taken, so it answers from a cache.
   */
  held?: (m: MessageRow) => Promise<boolean>;
  /**
   * Whether the message is to a simulator address (docs/design.md §16): its answers suppress nothing
   * and count nothing toward reputation. Absent: none is.
   */
  simulated?: (m: Pick<MessageRow, 'to_domain'>) => boolean;
}

/** WorkerOptions.asideAfterMs's default. */
export const ASIDE_AFTER_MS = 2000;
/** Attempts standing aside at once, per slot, by default (WorkerOptions.asideLimit). */
const ASIDE_PER_SLOT = 4;
/**
 * One reserve place (lease-loop.ts `reserve`) per this many slots: 5 for the default 50. Each holds one
 * message of an account with nothing in flight, while every slot and place aside is held.
 */
const RESERVE_PER_SLOTS = 10;

/** How soon a message the database's absence kept from its attempt is tried again. */
export const DATABASE_AWAY_MS = 5000;

/**
 * The longest a message is kept in hand under renewed leases (DeliveryWorker renewLeases): an attempt's
 * 5 minutes to its final ".", the 10 minutes the reply to it may take, a wait in its destination's line,
 * with room to spare. Past it something hangs that no bound of the attempt ends: the renewals stop, the
 * lease runs out, and another claim may take the message (at worst a duplicate, never a loss).
 */
export const MAX_HOLD_MS = 30 * 60_000;

/**
 * A message in hand: when it was claimed, when its lease ends as claimed or last renewed, the lease
 * check made at its claim (WorkerOptions.leaseCheck), and whether it was said to be overdue.
 */
export interface HeldLease {
  since: number;
  until: number;
  check?: () => boolean;
  overdue?: boolean;
}

/**
 * The messages in hand whose lease ends within half a lease of `now` (`renew`): an attempt rarely lasts
 * that long; one waiting for a slow server's reply to the final "." (up to 10 minutes,
 * smtp-transport.ts) does, and without a renewal another claim would take the message over and deliver
 * it a second time. Those in hand for `maxHoldMs` already are `overdue` instead: no more renewals.
 */
export function leasesToRenew(
  held: ReadonlyMap<string, HeldLease>,
  now: number,
  leaseMs: number,
  maxHoldMs: number = MAX_HOLD_MS,
): { renew: string[]; overdue: string[] } {
  const renew: string[] = [];
  const overdue: string[] = [];
  for (const [id, { since, until }] of held) {
    if (until - now >= leaseMs / 2) continue;
    (now - since < maxHoldMs ? renew : overdue).push(id);
  }
  return { renew, overdue };
}

/**
 * How often the expiry pass looks for mail past its deadline that no delivery reached (a worker slot
 * busy elsewhere, a queue that is behind): such mail fails within about this long of its deadline.
 */
export const EXPIRY_PASS_MS = 1000;
/** Messages the expiry pass takes at once; it takes again at once while it finds this many. */
const EXPIRY_BATCH = 100;

/** Tries to record an attempt, a second apart, before leaving it to the lease's expiry. */
const RECORD_TRIES = 60;

export const DEFAULT_WORKER_OPTIONS: WorkerOptions = {
  concurrency: 50,
  leaseMs: 10 * 60_000,
  pollMs: 1000,
  retry: DEFAULT_RETRY,
};

/** Told about every recorded outcome (metrics). */
export interface WorkerObserver {
  /** `superseded`: only the attempt was stored, the message had reached a final status (queue-repo.ts). */
  recorded(message: MessageRow, record: AttemptRecord, outcome: Exclude<RecordOutcome, 'lease_lost'>): void;
}

export class DeliveryWorker {
  readonly id: string;
  /** Claims, wakes and leases (lease-loop.ts); the items it runs are the leases this worker holds. */
  private readonly loop: LeaseLoop<MessageWithBody>;
  /** A claim failed: the database may have leased messages to us without our hearing of it. */
  private reconcile = false;
  /** Attempts finishing together are recorded in one transaction. */
  private readonly recorder: GroupCommit<AttemptRecord, RecordOutcome>;

  constructor(
    private readonly queue: QueueRepo,
    private readonly deliverer: Deliverer,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: WorkerOptions = DEFAULT_WORKER_OPTIONS,
    private readonly observer?: WorkerObserver,
  ) {
    this.id = options.owner ?? `worker-${newId()}`;
    // Results arrive one SMTP reply at a time; 5 ms lets them share commits (see bench/e2e).
    this.recorder = new GroupCommit((records) => queue.recordMany(records), { lingerMs: 5 });
    const places = Math.ceil(options.concurrency / RESERVE_PER_SLOTS);
    this.loop = new LeaseLoop<MessageWithBody>({
      concurrency: options.concurrency,
      pollMs: options.pollMs,
      canClaim: options.canClaim,
      asideLimit: options.asideLimit ?? options.concurrency * ASIDE_PER_SLOT,
      // Another account's password reset is claimed even while one account's attempts to servers that
      // never answer hold every slot and every place aside (lease-loop.ts, IDLE_ACCOUNT_CAPS).
      reserve: places,
      // As many places again for due mail with a deadline, one per account at a time: a code must not
      // wait for a slot its own account's backlog holds, nor take the idle accounts' reserve (claim).
      lane: places,
      // A code stuck at its server stands aside in the lane's own room after asideAfterMs, and the place
      // goes to another account's code: its account holds it (claim's `except`) until it ends.
      laneAsideLimit: places * ASIDE_PER_SLOT,
      key: (m) => m.id,
      claim: (slots, pool) => this.claim(slots, pool),
      run: (m, stepAside) => this.processAside(m, stepAside),
      nextWaitMs: async () => {
        const next = await this.queue.nextDue(this.clock.now());
        return next === undefined ? this.options.pollMs : next - this.clock.now();
      },
      claimFailed: (err) => {
        this.reconcile = true;
        this.logger.error({ err }, 'could not claim messages; retrying');
      },
      release: async () => {
        await this.queue.releaseAll(this.id);
      },
    });
  }

  start(): void {
    this.loop.start();
    // Looked at four times a lease, so that a renewal comes well before the half-lease it waits for.
    this.renewTimer ??= setInterval(() => {
      this.renewing ??= this.renewLeases().finally(() => (this.renewing = undefined));
    }, this.options.leaseMs / 4);
    this.renewTimer.unref();
    this.expiryTimer ??= setInterval(() => {
      // Not behind a pass still running: a long one must not keep codes past their deadline in the lane.
      this.leaveLanePastDeadline();
      this.expiring ??= this.expirePass().finally(() => (this.expiring = undefined));
    }, EXPIRY_PASS_MS);
    this.expiryTimer.unref();
  }

  /** New mail was queued: look at the queue now instead of at the next poll (the fast path). */
  wake(): void {
    this.loop.wake();
  }

  /**
   * Stops claiming, lets deliveries in flight finish (for stopGraceMs at most), and gives back every
   * lease. A stop that waited for a server withholding its reply to a final "." kept a `serve` process
   * from answering and delivering for 10 minutes (a fault probe); given up, a message whose content had
   * not all gone is retried safely, and one past its final "." may reach the server twice.
   */
  async stop(): Promise<void> {
    // The expiry pass first: the loop's stop gives back every lease, the pass's too.
    clearInterval(this.expiryTimer);
    this.expiryTimer = undefined;
    await this.expiring;
    // The leases of deliveries in flight are still renewed while they finish.
    await this.loop.stop(this.options.stopGraceMs);
    const givenUp = this.loop.held();
    if (givenUp.length > 0)
      this.logger.warn(
        { messages: givenUp.length, messageIds: givenUp.slice(0, 20) },
        'stopping: gave up deliveries still in flight; they are tried again (one past its final "." may be delivered twice)',
      );
    clearInterval(this.renewTimer);
    this.renewTimer = undefined;
    await this.renewing;
  }

  /**
   * A message on a lane place past its deadline only waits for the reply to its final "." (the attempt
   * is cut at the deadline short of it): it gives the place, and its account's turn in the lane, to the
   * next code, rather than hold them for the reply's 10 minutes. Run at each tick of the expiry pass.
   */
  private leaveLanePastDeadline(): void {
    const now = this.clock.now();
    for (const [id, held] of this.lane) {
      if (held.deadline > now) continue;
      this.lane.delete(id);
      this.loop.leaveLane(id);
    }
  }

  /** The messages in hand: the loop's, and the expiry pass's (whose leases no release may take). */
  private inHand(): string[] {
    return [...new Set([...this.loop.held(), ...this.held.keys()])];
  }

  /**
   * Fails the mail past its deadline (messages.deadline_at) that no delivery holds, without an attempt
   * and without a slot: while every slot is busy, or the queue is behind, a one-time code's failure is
   * still recorded (and pushed) within about EXPIRY_PASS_MS of its deadline rather than when a slot
   * reaches it (a fault probe saw it 149 s late). A pass that fails is tried at the next look.
   */
  async expirePass(): Promise<void> {
    try {
      for (;;) {
        if (!this.loop.started || this.options.canClaim?.() === false) return;
        const now = this.clock.now();
        const expired = await this.queue.claimExpired(this.id, now, now + this.options.leaseMs, EXPIRY_BATCH);
        for (const m of expired) this.held.set(m.id, { since: now, until: now + this.options.leaseMs });
        await Promise.all(
          expired.map(async (m) => {
            try {
              // A failed look at the account's hold only loses the detail that says it was held.
              const held = this.options.held ? await this.options.held(m).catch(() => false) : false;
              await this.keep(m, this.expiredRecord(m, held));
            } finally {
              this.held.delete(m.id);
            }
          }),
        );
        if (expired.length < EXPIRY_BATCH) return;
      }
    } catch (err) {
      this.logger.warn({ err }, 'could not fail the mail past its deadline; trying again');
    }
  }

  /**
   * Extends the leases of messages in hand near the end of theirs (leasesToRenew), in one statement;
   * not those whose lease check fails (this process may be counted dead: another may hold them now).
   * A renewal that fails is tried at the next look, and the lease's own length is the margin.
   */
  async renewLeases(): Promise<void> {
    const now = this.clock.now();
    const { renew, overdue } = leasesToRenew(this.held, now, this.options.leaseMs);
    for (const id of overdue) {
      // Said once: its lease is left to run out.
      const lease = this.held.get(id)!;
      if (lease.overdue) continue;
      lease.overdue = true;
      this.logger.error(
        { messageId: id, heldMs: now - lease.since },
        'a delivery has been in hand too long; its lease is no longer renewed, and another claim may take the message',
      );
    }
    const due = renew.filter((id) => this.held.get(id)?.check?.() ?? true);
    if (due.length === 0) return;
    const until = now + this.options.leaseMs;
    try {
      await this.queue.renewLeases(this.id, due, until);
      for (const id of due) {
        const lease = this.held.get(id);
        if (lease) lease.until = until;
      }
    } catch (err) {
      this.logger.warn({ err, messages: due.length }, 'could not renew the leases of messages in delivery');
    }
  }

  private async claim(slots: number, pool: ClaimPool): Promise<MessageWithBody[]> {
    if (this.reconcile) {
      // A claim that committed while its answer was lost would hold those messages until the lease
      // expires; give back every lease but those in hand.
      await this.queue.releaseAll(this.id, this.inHand());
      this.reconcile = false;
    }
    const now = this.clock.now();
    const check = this.options.leaseCheck?.();
    const leaseUntil = now + this.options.leaseMs;
    // The lane's places go to due mail with a deadline, of accounts with none on the lane (in a place or
    // standing aside in its room, until its deadline passes): a code must not wait for a slot its own
    // account's slow backlog holds (a fault probe saw codes expire so). They are apart from the
    // reserve's, which stay the idle accounts' (a fault probe saw one account's codes, stuck at a server
    // that never answered their final ".", take the reserve from every other account).
    const claimed =
      pool === 'lane'
        ? await this.queue.claimLane(this.id, now, leaseUntil, slots, [
            ...new Set([...this.lane.values()].map((l) => l.accountId)),
          ])
        : await this.queue.claimDue(
            this.id,
            now,
            leaseUntil,
            slots,
            pool === 'reserve' ? IDLE_ACCOUNT_CAPS : DELIVERY_CAPS,
          );
    // The process froze (SIGSTOP, a paused virtual machine) around the claim, or learnt meanwhile that
    // it was counted dead: what it took goes back at once, to be claimed again after the next heartbeat,
    // rather than sent and cut before the final dot, waiting for a retry (a fault probe's resumed worker
    // held a fresh message six minutes that way).
    if (check && claimed.length > 0 && !check()) {
      this.logger.info(
        { messages: claimed.length },
        'claimed while this process may be counted dead; given back',
      );
      await this.queue.releaseAll(this.id, this.inHand()).catch(() => (this.reconcile = true));
      return [];
    }
    for (const m of claimed) {
      this.held.set(m.id, { since: now, until: now + this.options.leaseMs, ...(check ? { check } : {}) });
      if (pool === 'lane')
        this.lane.set(m.id, {
          accountId: m.account_id,
          deadline: messageDeadline(m.created_at, m.deadline_at, this.options.retry),
        });
    }
    return claimed;
  }

  /**
   * process(), standing aside once it has taken asideAfterMs (WorkerOptions), and trying again each
   * asideAfterMs while those standing aside are at their limit: room made later is taken then.
   */
  private async processAside(m: MessageWithBody, stepAside: () => boolean): Promise<void> {
    const timer = setInterval(() => {
      if (!stepAside()) return;
      this.asideCount++;
      clearInterval(timer);
    }, this.options.asideAfterMs ?? ASIDE_AFTER_MS);
    timer.unref();
    try {
      await this.process(m);
    } finally {
      clearInterval(timer);
      this.held.delete(m.id);
      this.lane.delete(m.id);
    }
  }

  /** Attempts that have stood aside since the worker started (tests, metrics). */
  asideCount = 0;
  /** Each message in hand, from its claim until its processing ends (renewLeases, the lease check). */
  private readonly held = new Map<string, HeldLease>();
  /** The messages in hand on a lane place (lease-loop.ts), with their account and deadline. */
  private readonly lane = new Map<string, { accountId: string; deadline: number }>();
  private renewTimer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | undefined;
  private expiryTimer: NodeJS.Timeout | undefined;
  private expiring: Promise<void> | undefined;

  private async process(m: MessageWithBody): Promise<void> {
    // Every send has HTML (the send route refuses an empty one): none means its body row is missing
    // (the queue's claim answers ''), which no accept leaves; it is sent as it is, and said.
    if (m.html === '') this.logger.error({ messageId: m.id }, 'the message has no body; sent without HTML');
    const started = this.clock.now();
    let record: AttemptRecord;
    try {
      record = await this.attempt(m, started);
    } catch (thrown) {
      // What failed, and whether it failed before anything was sent.
      const notStarted = thrown instanceof AttemptNotStarted;
      const err = notStarted ? thrown.cause : thrown;
      if (notStarted && databaseUnavailable(err)) {
        // The database went away while the attempt was being prepared (a restart, a failover): nothing
        // was sent, so nothing is counted, and the message comes back in seconds rather than at the
        // schedule's first retry (5 minutes), which a password reset cannot wait for. Only before
        // sending: a retry in seconds after a failure past it could send the message again and again.
        this.logger.warn({ err, messageId: m.id }, 'the database is away; the message waits for it');
        return this.keep(
          m,
          this.record(m, {
            status: m.status,
            nextAttemptAt: started + DATABASE_AWAY_MS,
            counted: false,
            attempt: undefined,
            events: [],
          }),
        );
      }
      // A bug or an unexpected failure: keep the message, try again on the normal schedule.
      this.logger.error({ err, messageId: m.id }, 'delivery attempt failed unexpectedly');
      record = await this.attemptRecord(m, started, {
        outcome: 'deferred',
        smtpCode: null,
        enhanced: '4.3.0',
        reply: `internal error: ${(err as Error).message}`,
        remoteHost: null,
        remoteIp: null,
        tls: false,
        throttled: false,
        greylisted: false,
        // txmail's own trouble, not the recipient side's: no category (outcome.ts failedPermanently).
        category: null,
        reason: 'an internal error of txmail',
      });
    }
    return this.keep(m, record);
  }

  /**
   * Records what became of the message. When an attempt happened, recording it is what keeps it from
   * happening twice. A database that is away for a moment (a restart, a failover) is waited for, up to
   * a minute; after that the lease expires and the message is tried again (at worst a duplicate, never
   * a loss).
   */
  private async keep(m: MessageWithBody, record: AttemptRecord): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        const outcome = await this.recorder.submit(record);
        if (outcome === 'lease_lost') {
          // Another process holds it now (this one was counted dead): this attempt is not in the log.
          // A server that had taken the message may receive it a second time; the operator hears so.
          const attempt = record.attempt;
          this.logger.warn(
            {
              messageId: m.id,
              ...(attempt
                ? { outcome: attempt.outcome, smtpCode: attempt.smtp_code, host: attempt.remote_host }
                : {}),
            },
            attempt?.outcome === 'delivered'
              ? 'lease lost before the attempt was recorded: the server took the message, which another process may deliver again'
              : 'lease lost before the attempt was recorded',
          );
          return;
        }
        if (outcome === 'superseded') {
          this.logger.info(
            { messageId: m.id, status: record.status },
            'the message bounced or drew a complaint during the attempt: it keeps that status',
          );
        }
        this.observer?.recorded(m, record, outcome);
        this.logAttempt(m, record);
        return;
      } catch (err) {
        // Stopping: a few more tries, then leave it to the lease rather than hold up the shutdown.
        if (tries >= (this.loop.started ? RECORD_TRIES : Math.min(RECORD_TRIES, 5))) {
          this.logger.error({ err, messageId: m.id }, 'could not record the delivery attempt');
          return;
        }
        if (tries === 1)
          this.logger.warn({ err, messageId: m.id }, 'could not record the attempt yet; retrying');
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  }

  /**
   * One line for each attempt recorded, as an MTA's log has (Postfix's "status=sent"): the message,
   * the recipient's domain, what came of it, the server's reply as it came (which may name the
   * address, as Postfix's log does) and how long it took.
   * An operator reads deferrals, timeouts and throttling here without opening the database.
   */
  private logAttempt(m: MessageWithBody, record: AttemptRecord): void {
    const a = record.attempt;
    if (!a) {
      // Failed without an attempt (expired while it waited, or unsendable): as Postfix logs a message
      // it gives up on in the queue ("status=expired").
      if (record.status === 'failed')
        this.logger.info(
          { messageId: m.id, domain: m.to_domain, status: record.status, attempts: m.attempts },
          record.counted === false ? 'expired without a further attempt' : 'failed without an attempt',
        );
      return;
    }
    this.logger.info(
      {
        messageId: m.id,
        domain: m.to_domain,
        outcome: a.outcome,
        status: record.status,
        host: a.remote_host,
        code: a.enhanced_code ?? a.smtp_code,
        reply: a.reply?.slice(0, 200),
        ms: a.duration_ms,
      },
      'delivery attempt',
    );
  }

  /**
   * Delivers once and says what to record. A message past its deadline (its domain's expire_after, or
   * the default retry period) is not tried: it fails as expired (ARCHITECTURE.md, "Expiry").
   */
  private async attempt(m: MessageWithBody, started: number): Promise<AttemptRecord> {
    const deadline = messageDeadline(m.created_at, m.deadline_at, this.options.retry);
    if (started >= deadline)
      return this.expiredRecord(m, !!this.options.held && (await beforeSending(this.options.held(m))));
    if (this.options.held && (await beforeSending(this.options.held(m)))) {
      // Held like a destination's pause: only the schedule moves, no attempt is counted, and the
      // deadline still ends it.
      return this.record(m, {
        status: m.status,
        nextAttemptAt: Math.min(started + HOLD_MS, deadline),
        counted: false,
        attempt: undefined,
        events: [],
      });
    }
    const outcome = await this.deliverer.deliver(m, this.held.get(m.id)?.check, deadline);
    switch (outcome.kind) {
      case 'paused':
        // The destination asked for a pause: only the schedule moves, no attempt is counted. A pause
        // past the deadline ends at it, when the message fails without an attempt.
        return this.record(m, {
          status: m.status,
          nextAttemptAt: Math.min(outcome.until, deadline),
          counted: false,
          attempt: undefined,
          events: [],
        });
      case 'unsendable':
        return this.stateRecord(m, failedPermanently(outcome.reason, outcome.details), undefined);
      case 'attempted':
        // Why another host answered: the ones before it were skipped (delivery/unreachable-hosts.ts).
        if (outcome.result.skippedHosts)
          this.logger.info(
            { messageId: m.id, domain: m.to_domain, skipped: outcome.result.skippedHosts },
            'skipped mail hosts that could not be reached lately',
          );
        return {
          ...(await this.attemptRecord(m, started, outcome.result, outcome.sourceIp, deadline)),
          raw: outcome.raw,
        };
    }
  }

  /**
   * The record of a message taken at or past its deadline: failed as expired, no attempt counted. Mail a
   * paused account's hold kept until its deadline (`held`) says so: the account can tell it from mail
   * that waited for its destination.
   */
  private expiredRecord(m: MessageWithBody, held: boolean): AttemptRecord {
    const expired = expiredUnattempted(
      { createdAt: m.created_at, attempts: m.attempts },
      messageDeadline(m.created_at, m.deadline_at, this.options.retry),
      m.category,
    );
    if (held) heldByPause(expired);
    return { ...this.stateRecord(m, expired, undefined), counted: false };
  }

  private async attemptRecord(
    m: MessageRow,
    started: number,
    r: AttemptResult,
    sourceIp?: string,
    deadline?: number,
  ): Promise<AttemptRecord> {
    const disabledBefore = await this.disabledBefore(m, r);
    const current = leftToSchedule(r) ? await this.storedDeadline(m, deadline) : deadline;
    const now = this.clock.now();
    const next = decideNext(
      {
        status: m.status,
        attempts: m.attempts,
        createdAt: m.created_at,
        disabledBefore,
        deadline: current,
      },
      r,
      now,
      Math.random(),
      this.options.retry,
    );
    return this.stateRecord(m, next, {
      id: newId(),
      message_id: m.id,
      account_id: m.account_id,
      started_at: started,
      duration_ms: now - started,
      outcome: next.attemptOutcome,
      remote_host: r.remoteHost,
      remote_ip: r.remoteIp,
      tls: r.tls ? 1 : 0,
      smtp_code: r.smtpCode,
      enhanced_code: r.enhanced,
      reply: r.reply,
      source_ip: sourceIp ?? null,
      ...attemptTlsColumns(r),
    });
  }

  /**
   * The deadline a retry is weighed against: the stored one, read again after the attempt, as a PATCH
   * of the domain's expire_after may have moved it meanwhile (ARCHITECTURE.md, "Expiry"). Without it, a
   * deadline lowered during the attempt got an email.delivery_delayed announcing a retry past it, and an
   * email.failed a second later from the expiry pass. Unreadable: the one read at the claim.
   */
  private async storedDeadline(m: MessageRow, claimed: number | undefined): Promise<number | undefined> {
    try {
      const stored = await this.queue.deadlineAt(m.id);
      return stored === undefined ? claimed : messageDeadline(m.created_at, stored, this.options.retry);
    } catch (err) {
      this.logger.warn(
        { err, messageId: m.id },
        "could not read the message's deadline again; kept the claim's",
      );
      return claimed;
    }
  }

  /**
   * A disabled mailbox suppresses the address the second time (bounce/categories.ts): only then is the
   * address's history read, one indexed query. When it cannot be read the bounce is still recorded, as
   * a first one: the attempt happened, and recording it matters more than the suppression.
   */
  private async disabledBefore(m: MessageRow, r: AttemptResult): Promise<boolean> {
    if (r.outcome !== 'bounced' || r.category !== 'mailbox_disabled') return false;
    try {
      return await this.queue.bouncedDisabledBefore(
        m.account_id,
        m.to_email,
        m.id,
        this.clock.now() - DISABLED_REPEAT_WINDOW_MS,
      );
    } catch (err) {
      this.logger.warn({ err, messageId: m.id }, 'could not read earlier bounces; counted as a first');
      return false;
    }
  }

  private stateRecord(
    m: MessageRow,
    next: NextState,
    attempt: DeliveryAttemptRow | undefined,
  ): AttemptRecord {
    return this.record(m, {
      status: next.status,
      nextAttemptAt: next.nextAttemptAt,
      counted: true,
      attempt,
      events: next.events.map((e) => ({ id: newId(), ...e })),
      // A simulator address is never suppressed: the next rehearsal is accepted too (docs/design.md §16).
      ...(next.suppress && !this.options.simulated?.(m)
        ? {
            suppression: {
              id: newId(),
              address: m.to_email.toLowerCase(),
              origin: 'bounce' as const,
              reason: next.suppress.reason,
              enhanced_code: next.suppress.enhanced,
            },
          }
        : {}),
    });
  }

  private record(
    m: MessageRow,
    change: Pick<
      AttemptRecord,
      'status' | 'nextAttemptAt' | 'counted' | 'attempt' | 'events' | 'suppression'
    >,
  ): AttemptRecord {
    const record = {
      messageId: m.id,
      accountId: m.account_id,
      owner: this.id,
      now: this.clock.now(),
      ...change,
    };
    // What it adds to the reputation counts if applied (reputation/counts.ts); the simulator's answers
    // say nothing about the account's mail.
    return { ...record, reputation: this.options.simulated?.(m) ? undefined : deliveryDelta(m, record) };
  }
}

/** The attempt's TLS columns (schema.ts DeliveryAttemptsTable): null when no session answered it. */
export function attemptTlsColumns(
  r: AttemptResult,
): Pick<
  DeliveryAttemptRow,
  'tls_version' | 'tls_cipher' | 'tls_certificate' | 'tls_certificate_error' | 'tls_policy' | 'tls_fallback'
> {
  const t = r.tlsDetails;
  return {
    tls_version: t?.version ?? null,
    tls_cipher: t?.cipher ?? null,
    tls_certificate: t?.certificate ?? null,
    tls_certificate_error: t?.certificateError ?? null,
    tls_policy: t?.policy ?? null,
    tls_fallback: t?.cleartextFallback ? 1 : 0,
  };
}

/** A read the worker makes before a delivery starts: if it fails, nothing was sent. */
function beforeSending<T>(read: Promise<T>): Promise<T> {
  return read.catch((err: unknown) => {
    throw new AttemptNotStarted(err);
  });
}

/** Adds to an expiry's detail that the account's paused sending held the message (docs/API.md). */
function heldByPause(expired: NextState): void {
  for (const e of expired.events) {
    if (typeof e.data.detail === 'string')
      e.data.detail = `${e.data.detail}; held while sending was paused (account_paused)`;
  }
}
