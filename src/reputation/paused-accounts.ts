// Which accounts are paused, as the delivery worker asks for every message it takes: the whole set read
// at most once per `ttlMs` (one indexed query over the few accounts that are not healthy), not a query
// per message. A pause is seen within that time by every worker process; when the read fails the last
// set read stands (a database hiccup neither stops nor releases everyone's mail).
//
// An account the set says is paused is asked again on its own (`stillPaused`, one primary-key read)
// before its mail is held: a resume, usually run by the operator's CLI in another process, would
// otherwise be seen only a second later, and a message held meanwhile would wait HOLD_MS more. Only
// paused accounts' mail pays for it.
//
// A pause made in this process is told at once (`invalidate`, on the core's reputationChanged signal):
// the set is read again before the next message is judged.
import type { Clock } from '../clock.js';
import { Snapshot } from '../snapshot.js';

export class PausedAccounts {
  private readonly ids: Snapshot<ReadonlySet<string>>;

  constructor(
    load: () => Promise<string[]>,
    clock: Clock,
    private readonly onError: (err: unknown) => void,
    ttlMs = 1000,
    private readonly stillPaused?: (accountId: string) => Promise<boolean>,
  ) {
    this.ids = new Snapshot(
      async () => new Set(await load()),
      new Set(),
      ttlMs,
      () => clock.now(),
      onError,
    );
  }

  /** An account's state changed in this process: read the set again before the next answer. */
  invalidate(): void {
    this.ids.invalidate();
  }

  async has(accountId: string): Promise<boolean> {
    if (!(await this.ids.get()).has(accountId)) return false;
    if (!this.stillPaused) return true;
    // When the read fails the set stands, as above.
    return this.stillPaused(accountId).catch((err: unknown) => {
      this.onError(err);
      return true;
    });
  }
}
