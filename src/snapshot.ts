// A fact read whole from the shared database and trusted for a while, for code that asks it on every
// message (which accounts are paused, which destinations are paused for which source address): one read
// per `ttlMs` however many ask, callers arriving during a read wait for that read, and a read that fails
// leaves the last value in use (reported to `onError`): a database hiccup neither stops nor releases
// everyone's mail. Unlike cache.ts (entries per key, loaded on a miss), the value is the whole set.

export class Snapshot<T> {
  private value: T;
  private readAt = -Infinity;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly load: () => Promise<T>,
    initial: T,
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly onError: (err: unknown) => void,
  ) {
    this.value = initial;
  }

  async get(): Promise<T> {
    if (this.now() - this.readAt >= this.ttlMs) {
      this.reading ??= this.load()
        .then((value) => {
          this.value = value;
        })
        .catch(this.onError)
        .finally(() => {
          // Also after a failure: the next try waits the same time, not one per message.
          this.readAt = this.now();
          this.reading = undefined;
        });
      await this.reading;
    }
    return this.value;
  }
}
