// Group commit: writes that arrive together go into one transaction, so durability costs one disk
// flush per batch instead of one per write. Used for accepting messages and for recording delivery
// attempts. Each caller's promise settles only after the commit. One bad item must not fail its
// neighbours: a batch that fails is written again one by one (together-or-each.ts).
import { writeTogetherOrEach } from './together-or-each.js';

/** Writes a batch in one transaction; returns one outcome per item, in order. */
export type BatchWriter<I, O> = (items: I[]) => Promise<O[]>;

interface Pending<I, O> {
  item: I;
  resolve(outcome: O): void;
  reject(err: unknown): void;
}

export interface GroupCommitOptions<I, O> {
  /** Most items in one transaction. */
  maxBatch?: number;
  /**
   * Most weight in one transaction, as `weightOf` weighs items (a batch always takes its first item,
   * however heavy). For a writer on the event loop, whose transaction holds the loop while it writes:
   * ten 10 MiB messages in one batch held it for over a second, one per batch about a tenth of that,
   * with the loop free in between.
   */
  maxWeight?: number;
  weightOf?: (item: I) => number;
  /**
   * How long the first write of a batch waits for company. 0 (the default) collects only what arrives
   * in the same turn of the event loop. Writes that trickle in one by one (delivery results, each on
   * its own SMTP connection) need a few milliseconds to share a commit: a SQLite commit costs the
   * same for one row or fifty.
   */
  lingerMs?: number;
  /**
   * How many batches may be committing at once (default 1). More keeps a writer that queues batches
   * (the SQLite accept thread) or commits them side by side (a PostgreSQL pool) always busy: the next
   * batch is handed over while the previous one is still being flushed to disk.
   */
  maxInFlight?: number;
  /**
   * Hand each item to the writer as it comes (still at most maxInFlight at once) instead of collecting
   * a turn's worth first: for a writer that batches by itself. The SQLite accept thread merges whatever
   * waits for it, so it can commit the first requests of a burst while the event loop is still parsing
   * the rest, instead of the two taking turns.
   */
  immediate?: boolean;
  /** Called after each commit with its items and their outcomes (e.g. to wake the delivery worker). */
  onCommitted?: (items: I[], outcomes: O[]) => void;
}

export class GroupCommit<I, O> {
  private queue: Pending<I, O>[] = [];
  private scheduled = false;
  private readonly flushing = new Set<Promise<void>>();
  private readonly maxBatch: number;
  private readonly lingerMs: number;
  private readonly maxInFlight: number;

  constructor(
    private readonly writeBatch: BatchWriter<I, O>,
    private readonly options: GroupCommitOptions<I, O> = {},
  ) {
    this.maxBatch = options.maxBatch ?? 256;
    this.lingerMs = options.lingerMs ?? 0;
    this.maxInFlight = options.maxInFlight ?? 1;
  }

  /** Resolves once the item is durably committed (or refused); rejects when the database fails. */
  submit(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Waits until everything submitted so far is written (graceful shutdown). */
  async drain(): Promise<void> {
    while (this.flushing.size > 0 || this.queue.length > 0) {
      if (this.flushing.size < this.maxInFlight) this.startFlush();
      await Promise.race(this.flushing);
    }
  }

  private schedule(): void {
    if (this.scheduled || this.flushing.size >= this.maxInFlight) return;
    if (this.options.immediate) return this.startFlush();
    this.scheduled = true;
    const flush = () => {
      this.scheduled = false;
      if (this.flushing.size < this.maxInFlight) this.startFlush();
    };
    // setImmediate, not a timer, by default: collect whatever arrived in this turn, add no delay.
    if (this.lingerMs > 0 && this.queue.length < this.maxBatch) setTimeout(flush, this.lingerMs);
    else setImmediate(flush);
  }

  private startFlush(): void {
    const batch = this.queue.splice(0, this.batchLength());
    if (batch.length === 0) return;
    const flush: Promise<void> = this.write(batch).finally(() => {
      this.flushing.delete(flush);
      if (this.queue.length > 0) this.schedule();
    });
    this.flushing.add(flush);
  }

  /** How many of the waiting items the next batch takes: up to maxBatch and, past its first, maxWeight. */
  private batchLength(): number {
    const { weightOf, maxWeight = Infinity } = this.options;
    const most = Math.min(this.maxBatch, this.queue.length);
    if (!weightOf || maxWeight === Infinity) return most;
    let weight = 0;
    for (let n = 0; n < most; n++) {
      weight += weightOf(this.queue[n]!.item);
      if (n > 0 && weight > maxWeight) return n;
    }
    return most;
  }

  private write(batch: Pending<I, O>[]): Promise<void> {
    return writeTogetherOrEach(
      batch,
      (pending) => this.writeBatch(pending.map((p) => p.item)),
      (pending, outcomes) => {
        pending.forEach((p, i) => p.resolve(outcomes[i]!));
        this.committed(pending, outcomes);
      },
      (p, err) => p.reject(err),
    );
  }

  private committed(batch: Pending<I, O>[], outcomes: O[]): void {
    this.options.onCommitted?.(
      batch.map((p) => p.item),
      outcomes,
    );
  }
}
