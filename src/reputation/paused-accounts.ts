// Which accounts are paused, as the delivery worker asks for every message it takes: the whole set read
// at most once per `ttlMs` (one indexed query over the few accounts that are not healthy), not a query
// per message. A pause is seen within that time by every worker process; when the read fails the last
// set read stands (a database hiccup neither stops nor releases everyone's mail).
//
// An account the set says is paused is asked again on its own (`stillPaused`, one primary-key read)
// before its mail is held: a resume, usually run by the operator's CLI in another process, would
// otherwise be seen only a second later, and a message held meanwhile would wait HOLD_MS more. Only
// paused accounts' mail pays for it.
import type { Clock } from '../clock.js';

/**
 * A held message is looked at again this much later (resuming the account makes the mail held due at
 * once: db/account-reputation-repo.ts, which touches only messages due within this long), so a large
 * paused backlog costs one claim per message per period.
 */
export const HOLD_MS = 5 * 60_000;

export class PausedAccounts {
  private ids = new Set<string>();
  private readAt = -Infinity;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly load: () => Promise<string[]>,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void,
    private readonly ttlMs = 1000,
    private readonly stillPaused?: (accountId: string) => Promise<boolean>,
  ) {}

  async has(accountId: string): Promise<boolean> {
    if (this.clock.now() - this.readAt >= this.ttlMs) {
      this.reading ??= this.load()
        .then((ids) => {
          this.ids = new Set(ids);
        })
        .catch(this.onError)
        .finally(() => {
          this.readAt = this.clock.now();
          this.reading = undefined;
        });
      await this.reading;
    }
    if (!this.ids.has(accountId)) return false;
    if (!this.stillPaused) return true;
    // When the read fails the set stands, as above.
    return this.stillPaused(accountId).catch((err: unknown) => {
      this.onError(err);
      return true;
    });
  }
}
