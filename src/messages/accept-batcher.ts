// Group commit: requests that arrive together are written in one transaction, so durability costs one
// disk flush per batch instead of one per request. A request's promise settles only after the commit.
import type { AcceptItem, AcceptOutcome, AcceptWriter } from '../db/accept-repo.js';

interface Pending {
  item: AcceptItem;
  resolve(outcome: AcceptOutcome): void;
  reject(err: unknown): void;
}

export interface AcceptBatcherOptions {
  /** Most items in one transaction. */
  maxBatch?: number;
  /** Called after each commit with the items it accepted (wakes the delivery worker). */
  onCommitted?: (items: AcceptItem[]) => void;
}

export class AcceptBatcher {
  private queue: Pending[] = [];
  private scheduled = false;
  private flushing: Promise<void> | undefined;
  private readonly maxBatch: number;

  constructor(
    private readonly repo: AcceptWriter,
    private readonly options: AcceptBatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 256;
  }

  /** Resolves once the item is durably committed (or refused); rejects when the database fails. */
  submit(item: AcceptItem): Promise<AcceptOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Waits until everything submitted so far is written (graceful shutdown). */
  async drain(): Promise<void> {
    while (this.flushing || this.queue.length > 0) {
      if (!this.flushing) this.startFlush();
      await this.flushing;
    }
  }

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    // setImmediate, not a timer: collect whatever arrived in this turn of the event loop, add no delay.
    setImmediate(() => {
      this.scheduled = false;
      if (!this.flushing) this.startFlush();
    });
  }

  private startFlush(): void {
    const batch = this.queue.splice(0, this.maxBatch);
    if (batch.length === 0) return;
    this.flushing = this.write(batch).finally(() => {
      this.flushing = undefined;
      if (this.queue.length > 0) this.schedule();
    });
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await this.repo.persist(batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(outcomes[i]!));
      this.committed(batch, outcomes);
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err);
        return;
      }
      // One bad item must not fail its neighbours: retry each on its own, so only the culprit fails.
      for (const p of batch) {
        try {
          const [outcome] = await this.repo.persist([p.item]);
          p.resolve(outcome!);
          this.committed([p], [outcome!]);
        } catch (itemErr) {
          p.reject(itemErr);
        }
      }
    }
  }

  private committed(batch: Pending[], outcomes: AcceptOutcome[]): void {
    if (!this.options.onCommitted) return;
    const accepted = batch.filter((_, i) => outcomes[i]!.kind === 'accepted').map((p) => p.item);
    if (accepted.length > 0) this.options.onCommitted(accepted);
  }
}
