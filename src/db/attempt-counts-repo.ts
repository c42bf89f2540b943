// Attempt counts in fixed windows, shared by every process on the database (accounts/attempt-limiter.ts,
// inbound/inbound-budget.ts).
// Taking an attempt is one upsert that counts it only while the window has room, so concurrent requests
// in any number of processes never get more than `max` attempts between them.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.js';
import type { Database } from './schema.js';

export interface TakenAttempt {
  key: string;
  /** Counted (the window had room); false: refused, nothing counted. */
  allowed: boolean;
  /** When the key's window ends (refused keys only; 0 for allowed ones). */
  expiresAt: number;
}

/** An amount to add to a key's count within `max` (AttemptCountsRepo.add), for a caller's transaction. */
export interface CountCharge {
  key: string;
  amount: number;
  max: number;
  windowMs: number;
}

/** One attempt against every key of a request, or against none (AttemptCountsRepo.takeMany). */
export interface AttemptTake {
  keys: string[];
  max: number;
  windowMs: number;
  now: number;
}

export class AttemptCountsRepo {
  /**
   * Whether takes should be batched (takeMany with many): on SQLite, whose one writer waits for the disk
   * at each commit, on the event loop. Not on PostgreSQL: a batch locks each take's keys in turn, so two
   * processes' batches holding the same keys in another order deadlock (each aborted after a second),
   * and separate takes already run side by side on the pool.
   */
  readonly batchesTakes: boolean;

  constructor(
    private readonly db: Kysely<Database>,
    dialect: Dialect = 'sqlite',
  ) {
    this.batchesTakes = dialect === 'sqlite';
  }

  /**
   * Each take in turn, in one transaction (one commit, one wait for the disk, for all of them): one
   * attempt against every key of a take, or against none (when one key's window is full, the others'
   * counts are given back in the same transaction). What each key came to, per take, in `keys`' order.
   * Two takes that share a key count twice, as two requests would.
   */
  takeMany(takes: AttemptTake[]): Promise<TakenAttempt[][]> {
    return this.db.transaction().execute(async (trx) => {
      const repo = new AttemptCountsRepo(trx);
      const out: TakenAttempt[][] = [];
      for (const t of takes) out.push(await repo.takeAllOrNone(t));
      return out;
    });
  }

  private async takeAllOrNone({ keys, max, windowMs, now }: AttemptTake): Promise<TakenAttempt[]> {
    const taken = await this.take(keys, max, windowMs, now);
    if (taken.some((t) => !t.allowed)) for (const t of taken) if (t.allowed) await this.refund(t.key, now);
    return taken;
  }

  /**
   * Counts one attempt against each key whose window has room (fewer than `max` attempts, or the window
   * is over: a new one starts). Refused keys are not counted. One statement for all the keys.
   */
  async take(keys: string[], max: number, windowMs: number, now: number): Promise<TakenAttempt[]> {
    // Sorted: two statements locking the same rows lock them in the same order (no deadlock).
    const sorted = [...new Set(keys)].sort();
    const counted = await this.db
      .insertInto('attempt_counts')
      .values(sorted.map((key) => ({ key, attempts: 1, expires_at: now + windowMs })))
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            attempts: sql`case when attempt_counts.expires_at <= ${now} then 1
                               else attempt_counts.attempts + 1 end`,
            expires_at: sql`case when attempt_counts.expires_at <= ${now} then excluded.expires_at
                                 else attempt_counts.expires_at end`,
          })
          // Full window: no update, no row returned. A refusal writes nothing.
          .where((eb) =>
            eb.or([eb('attempt_counts.expires_at', '<=', now), eb('attempt_counts.attempts', '<', max)]),
          ),
      )
      .returning('key')
      .execute();
    const allowed = new Set(counted.map((r) => r.key));
    const refused = sorted.filter((k) => !allowed.has(k));
    const windows =
      refused.length === 0
        ? []
        : await this.db
            .selectFrom('attempt_counts')
            .select(['key', 'expires_at'])
            .where('key', 'in', refused)
            .execute();
    const ends = new Map(windows.map((w) => [w.key, Number(w.expires_at)]));
    return keys.map((key) => ({
      key,
      allowed: allowed.has(key),
      // A window that ended between the two statements: the caller may try again at once.
      expiresAt: allowed.has(key) ? 0 : (ends.get(key) ?? now),
    }));
  }

  /** Gives back one attempt taken in the current window (the attempt turned out not to count). */
  async refund(key: string, now: number): Promise<void> {
    await this.db
      .updateTable('attempt_counts')
      .set({ attempts: sql`attempts - 1` })
      .where('key', '=', key)
      .where('attempts', '>', 0)
      .where('expires_at', '>', now)
      .execute();
  }

  /**
   * Adds `amount` to the key's count when the sum stays within `max`, or starts a new window with it
   * when the key's window is over; false, and nothing written, when it would pass `max`. One statement,
   * so concurrent additions in any number of processes never pass `max` between them. (The inbound
   * receiver's hourly budget, in the transaction that stores the message: inbound-repo.ts.)
   */
  async add(key: string, amount: number, max: number, windowMs: number, now: number): Promise<boolean> {
    if (amount > max) return false;
    const counted = await this.db
      .insertInto('attempt_counts')
      .values({ key, attempts: amount, expires_at: now + windowMs })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet({
            attempts: sql`case when attempt_counts.expires_at <= ${now} then excluded.attempts
                               else attempt_counts.attempts + excluded.attempts end`,
            expires_at: sql`case when attempt_counts.expires_at <= ${now} then excluded.expires_at
                                 else attempt_counts.expires_at end`,
          })
          .where((eb) =>
            eb.or([
              eb('attempt_counts.expires_at', '<=', now),
              eb(sql`attempt_counts.attempts + excluded.attempts`, '<=', max),
            ]),
          ),
      )
      .returning('key')
      .execute();
    return counted.length > 0;
  }

  /** The counts of these keys in their current windows (a key without one counts 0). */
  /**
   * The first charge `add` would refuse now, on a read alone (nothing counted): a guess for work to spare
   * before the transaction that counts, which alone decides under concurrency.
   */
  async firstWithoutRoom<C extends CountCharge>(charges: C[], now: number): Promise<C | undefined> {
    const counts = await this.counts(
      charges.map((c) => c.key),
      now,
    );
    return charges.find((c) => c.amount > c.max || counts.get(c.key)! + c.amount > c.max);
  }

  async counts(keys: string[], now: number): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('attempt_counts')
      .select(['key', 'attempts'])
      .where('key', 'in', keys)
      .where('expires_at', '>', now)
      .execute();
    const found = new Map(rows.map((r) => [r.key, Number(r.attempts)]));
    return new Map(keys.map((k) => [k, found.get(k) ?? 0]));
  }

  /** Forgets the key's attempts. */
  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('attempt_counts').where('key', '=', key).execute();
  }
}
