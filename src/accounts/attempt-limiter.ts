// Counts attempts per key (an IP address, an email address) in a fixed window, in the database, so every
// API process sharing it sees the same counts. Used for dashboard log-ins, sign-ups and mail requests:
// a guesser is stopped after `max` attempts per window, however many processes it spreads them over.
// Keys are stored as SHA-256 hashes: the table holds no addresses.
import { createHash } from 'node:crypto';
import type { AttemptCountsRepo, AttemptTake, TakenAttempt } from '../db/attempt-counts-repo.js';
import { GroupCommit } from '../group-commit.js';

export interface AttemptDecision {
  allowed: boolean;
  /** Seconds until the refused key may try again (when not allowed). */
  retryAfterSeconds: number;
}

export class AttemptLimiter {
  /**
   * On SQLite (AttemptCountsRepo.batchesTakes), takes that arrive in the same turn of the event loop
   * share one transaction: a flood of log-ins (300 at once from as many addresses) made 300 commits,
   * each waiting for the disk on the event loop, in one turn: the loop stood still for over a second.
   */
  private readonly takes = new GroupCommit<AttemptTake, TakenAttempt[]>((items) => this.repo.takeMany(items));

  constructor(
    private readonly repo: AttemptCountsRepo,
    /** Names this limit, so two limits never share a count. */
    private readonly scope: string,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /**
   * Counts one attempt against every key, or against none: when one key's window is full the attempt
   * is refused and the others' counts are given back. Count first, decide after: an attempt that turns
   * out not to count (a successful log-in) is refunded, so concurrent attempts can never overshoot.
   */
  async take(keys: string[], now: number): Promise<AttemptDecision> {
    const take = { keys: keys.map(this.hash), max: this.max, windowMs: this.windowMs, now };
    const taken = this.repo.batchesTakes
      ? await this.takes.submit(take)
      : (await this.repo.takeMany([take]))[0]!;
    const refused = taken.filter((t) => !t.allowed);
    if (refused.length === 0) return { allowed: true, retryAfterSeconds: 0 };
    const until = Math.max(...refused.map((t) => t.expiresAt));
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)) };
  }

  /** Gives back the attempt `take` counted against `key` in this window. */
  async refund(key: string, now: number): Promise<void> {
    await this.repo.refund(this.hash(key), now);
  }

  /** Forgets `key` (a successful log-in clears its address's failures). */
  async reset(key: string): Promise<void> {
    await this.repo.clear(this.hash(key));
  }

  private readonly hash = (key: string): string =>
    createHash('sha256').update(`${this.scope}\n${key}`).digest('hex');
}
