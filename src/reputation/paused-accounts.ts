// Which accounts are paused, as the delivery worker asks for every message it takes: the whole set read
// at most once per `ttlMs` (one indexed query over the few accounts that are not healthy), not a query
// per message. A pause is seen within that time by every worker process; when the read fails the last
// set read stands (a database hiccup neither stops nor releases everyone's mail).
import type { Clock } from '../clock.js';

export class PausedAccounts {
  private ids = new Set<string>();
  private readAt = -Infinity;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly load: () => Promise<string[]>,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void,
    private readonly ttlMs = 1000,
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
    return this.ids.has(accountId);
  }
}
