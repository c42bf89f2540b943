// The reputation guard (ARCHITECTURE.md, "Reputation guardrails"): judges an account's rolling window
// (judge.ts) and moves its state (transition.ts), healthy ↔ warning and → paused, with the consequences
// of a move to warning or paused: the notice and the webhook event in the move's own transaction (so of
// several processes judging at once exactly one writes them, db/account-reputation-repo.ts), then the
// email. Every move, and the resume, is in the account's audit log, written in the same transaction. Paused is left only through resume(), the operator's `txmail account resume`.
//
// When: soon() after a bounce or complaint is recorded for the account (the delivery worker's record,
// the inbound processor's), at most once a second per account however many arrive; soon() too after any
// other message of an account found below `min_messages` with a bounce or complaint in its window, once
// enough of them may have brought the window to the minimum and so to a warning or a pause (counted());
// and a sweep every few minutes over every account with something in its window and every account
// in warning, which is how a warning ends when the bad days leave the window.
import type { Logger } from 'pino';
import { auditRow, type AuditActor } from '../audit/audit.js';
import type { Clock } from '../clock.js';
import type { AccountReputationRepo, AccountReputationState } from '../db/account-reputation-repo.js';
import type { ReputationRepo } from '../db/reputation-repo.js';
import type { AuditLogRow } from '../db/schema.js';
import { newId } from '../ids.js';
import { windowStart } from './counts.js';
import { judgeReputation, type ReputationStatus, type ReputationWindow } from './judge.js';
import {
  reputationEvent,
  reputationMail,
  reputationNotice,
  resumedNotice,
  type ReputationFacts,
} from './reputation-notice.js';
import type { ReputationThresholds } from './thresholds.js';
import { decideTransition, type ReputationTransition } from './transition.js';

/** What the guard reads of the counts (db/reputation-repo.ts). */
export type ReputationCounts = Pick<ReputationRepo, 'window' | 'windows' | 'resetWindow'>;

export interface ReputationGuardDeps {
  counts: ReputationCounts;
  states: AccountReputationRepo;
  thresholds: ReputationThresholds;
  /** Queues a notice email to the account's signup address (messages/system-mail.ts). */
  mail: (accountId: string, subject: string, html: string) => Promise<unknown>;
  publicUrl: string;
  clock: Clock;
  logger: Logger;
  /**
   * Told after this process moved an account or resumed it: caches of accounts in this process (the API
   * key's) drop it at once; other processes see the change within their cache's second.
   */
  changed?: () => void;
}

/**
 * The account's audit entry of a move of its state to `status` at `now` (docs/API.md, "Audit log"):
 * `account.reputation_changed`, the new status as its target (as a plan change's). The guard's moves
 * are the system's (nobody asked for them), the resume the operator's.
 */
export function reputationAudit(
  accountId: string,
  status: ReputationStatus,
  actor: AuditActor,
  now: number,
): AuditLogRow {
  return auditRow(
    { accountId, actor, action: 'account.reputation_changed', target: status, ip: null },
    newId(),
    now,
  );
}

/** The state of an account the sweep's state read did not list: healthy, never moved. */
const NEVER_MOVED: AccountReputationState = { status: 'healthy', reason: null, changedAt: null };

/** Bounces and complaints arriving together are judged once per account per this long. */
export const JUDGE_COALESCE_MS = 1000;
/** How often the worker role sweeps every account with something in its window. */
export const SWEEP_INTERVAL_MS = 5 * 60_000;

export class ReputationGuard {
  /** Accounts with a judgement scheduled by soon(). */
  private readonly scheduled = new Map<string, NodeJS.Timeout>();
  /**
   * Accounts this process found below `minMessages` with a bounce or complaint in the window, and how
   * many of their messages counted() waits for before judging again: half of what the window was short
   * of the minimum, rounded up. Half, because other processes' messages join the window unseen here:
   * with two workers sharing an account's mail, each has counted its half when the window gets there;
   * alone, it costs a judgement at each halving (about ten on the way to 500). Dropped when a judgement
   * finds the account at or above the minimum, with a clean window, or paused; an account whose window
   * empties keeps its entry (one per account at most).
   */
  private readonly untilMinimum = new Map<string, number>();
  /**
   * Judgements running, by account (two may overlap: one scheduled while a slow one still runs): a
   * message counted meanwhile may not be in the window they read.
   */
  private readonly judging = new Map<string, number>();
  /** Judgements and sweeps running: stop() waits for them (their email goes through the accept writer). */
  private readonly running = new Set<Promise<unknown>>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly deps: ReputationGuardDeps) {}

  /** Judges the account within a second, once for every call made meanwhile. */
  soon(accountId: string): void {
    if (this.stopped || this.scheduled.has(accountId)) return;
    const timer = setTimeout(() => {
      this.scheduled.delete(accountId);
      this.track(this.judge(accountId));
    }, JUDGE_COALESCE_MS);
    timer.unref();
    this.scheduled.set(accountId, timer);
  }

  /**
   * A message of the account reached a final state that is not a bounce or complaint (a delivery, say)
   * and so joined its window. Judged within a second when it may be the message that brings a window
   * with a bounce or complaint in it to the minimum, and so to a warning or a pause, or when a judgement
   * of the account is running (which may have read the window without it). Otherwise it can only lower
   * rates already judged, and the sweep looks at it.
   */
  counted(accountId: string): void {
    if (this.judging.has(accountId)) return this.soon(accountId);
    const left = this.untilMinimum.get(accountId);
    if (left === undefined) return;
    if (left <= 1) this.soon(accountId);
    else this.untilMinimum.set(accountId, left - 1);
  }

  /** Judges one account now; the move it made, if it made one. */
  async judge(accountId: string): Promise<ReputationTransition | undefined> {
    this.judging.set(accountId, (this.judging.get(accountId) ?? 0) + 1);
    try {
      const state = await this.deps.states.state(accountId);
      if (!state || state.status === 'paused') {
        this.untilMinimum.delete(accountId);
        return undefined;
      }
      const now = this.deps.clock.now();
      const window = await this.deps.counts.window(
        accountId,
        windowStart(now, this.deps.thresholds.windowDays),
      );
      return await this.apply(accountId, state, window, 'judge');
    } finally {
      const left = (this.judging.get(accountId) ?? 1) - 1;
      if (left > 0) this.judging.set(accountId, left);
      else this.judging.delete(accountId);
    }
  }

  /**
   * Judges every account with something in its window and every account in warning (whose window may
   * have emptied): two queries, then a move for those whose status changes. Answers how many moved.
   *
   * The states are read before the windows, as judge() does: a resume zeroes the window before it sets
   * healthy, so a window read after a state is never older than the resume that state reflects. And a
   * pause and a resume landing after both reads leave reputation_changed_at changed, so the move judged
   * on the older window does not apply (db/account-reputation-repo.ts).
   */
  async sweep(): Promise<number> {
    const now = this.deps.clock.now();
    const states = await this.deps.states.movedStates();
    const windows = await this.deps.counts.windows(windowStart(now, this.deps.thresholds.windowDays));
    const byAccount = new Map<string, ReputationWindow>(windows.map((w) => [w.accountId, w]));
    for (const [id, state] of states) {
      if (state.status === 'warning' && !byAccount.has(id))
        byAccount.set(id, { messages: 0, bounced: 0, complained: 0 });
    }
    let moved = 0;
    for (const [id, window] of byAccount) {
      const state = states.get(id) ?? NEVER_MOVED;
      if (state.status === 'paused') continue;
      if (await this.apply(id, state, window, 'sweep')) moved++;
    }
    return moved;
  }

  /** Sweeps now and then every `intervalMs` (worker role) until stop(). */
  startSweeps(intervalMs = SWEEP_INTERVAL_MS): void {
    if (this.sweepTimer || this.stopped) return;
    const run = () => this.track(this.sweep());
    run();
    this.sweepTimer = setInterval(run, intervalMs);
    this.sweepTimer.unref();
  }

  /**
   * The operator lifts a pause: a fresh window first (so that no judgement between the two steps pauses
   * it again on the old one), then healthy with a notice. False when the account was not paused.
   */
  async resume(accountId: string): Promise<boolean> {
    const state = await this.deps.states.state(accountId);
    if (state?.status !== 'paused') return false;
    await this.deps.counts.resetWindow(accountId);
    const now = this.deps.clock.now();
    const resumed = await this.deps.states.resume(
      accountId,
      now,
      resumedNotice(accountId, newId(), now),
      reputationAudit(accountId, 'healthy', { type: 'operator' }, now),
    );
    if (resumed) {
      this.deps.changed?.();
      this.deps.logger.info({ accountId }, 'the operator resumed a paused account');
    }
    return resumed;
  }

  /** No judgement scheduled or running: what soon() and counted() asked for has been done. */
  get idle(): boolean {
    return this.scheduled.size === 0 && this.running.size === 0;
  }

  /** Resolves once the judgements and sweeps running now have ended (their email queued). */
  async settled(): Promise<void> {
    await Promise.all([...this.running]);
  }

  /** Cancels what is scheduled and waits for what runs. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweepTimer);
    for (const timer of this.scheduled.values()) clearTimeout(timer);
    this.scheduled.clear();
    await Promise.all([...this.running]);
  }

  /**
   * `by`: a sweep read every window before judging any, so its window may be older than a judgement
   * made meanwhile: it only adds to what counted() watches, or brings a count nearer, never drops one.
   */
  private async apply(
    accountId: string,
    state: AccountReputationState,
    window: ReputationWindow,
    by: 'judge' | 'sweep',
  ): Promise<ReputationTransition | undefined> {
    const { thresholds, states, clock, logger } = this.deps;
    const verdict = judgeReputation(window, thresholds);
    this.watch(accountId, window, verdict.judged, by);
    const move = decideTransition(state.status, verdict, thresholds);
    if (!move) return undefined;
    const now = clock.now();
    const facts: ReputationFacts = {
      accountId,
      status: move.to,
      reason: move.reason,
      bounceRate: verdict.bounceRate,
      complaintRate: verdict.complaintRate,
      messages: window.messages,
      windowDays: thresholds.windowDays,
    };
    const moved = await states.move({
      accountId,
      from: move.from,
      fromChangedAt: state.changedAt,
      to: move.to,
      reason: move.reason === '' ? null : move.reason,
      now,
      audit: reputationAudit(accountId, move.to, { type: 'system', id: 'reputation_guard' }, now),
      ...(move.tellAccount
        ? { notice: reputationNotice(facts, newId(), now), event: reputationEvent(facts, newId(), now) }
        : {}),
    });
    // Another process moved it first (or the operator did, or it was paused and resumed since this
    // judgement read its state): whoever moved it told the account.
    if (!moved) return undefined;
    this.deps.changed?.();
    logger.warn(
      { accountId, from: move.from, to: move.to, reason: move.reason },
      'account reputation changed',
    );
    if (move.tellAccount) {
      const mail = reputationMail(facts, thresholds, this.deps.publicUrl);
      await this.deps.mail(accountId, mail.subject, mail.html).catch((err: unknown) => {
        logger.warn({ err, accountId }, 'could not queue the reputation email');
      });
    }
    return move;
  }

  /** What counted() watches of the account after a judgement or a sweep (see untilMinimum). */
  private watch(accountId: string, window: ReputationWindow, judged: boolean, by: 'judge' | 'sweep'): void {
    const left = Math.ceil((this.deps.thresholds.minMessages - window.messages) / 2);
    if (!judged && window.bounced + window.complained > 0) {
      const watched = this.untilMinimum.get(accountId);
      this.untilMinimum.set(
        accountId,
        by === 'sweep' && watched !== undefined ? Math.min(watched, left) : left,
      );
    } else if (by === 'judge') {
      this.untilMinimum.delete(accountId);
    }
  }

  private track(p: Promise<unknown>): void {
    const tracked = p
      .catch((err: unknown) => this.deps.logger.warn({ err }, 'could not judge account reputation'))
      .finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }
}
