// A fact read whole from the shared database and trusted for a while, for code that asks it on every
// message (which accounts are paused, which destinations are paused for which source address): one read
// per `ttlMs` however many ask, callers arriving during a read wait for that read, and a read that fails
// leaves the last value in use (reported to `onError`): a database hiccup neither stops nor releases
// everyone's mail. Unlike cache.ts (entries per key, loaded on a miss), the value is the whole set.
//
// A change this process made itself (it paused an account) is told with `invalidate()`: the next ask
// reads again, and a read already in flight does not count, since it may have begun before the change.

export class Snapshot<T> {
  private value: T;
  private readAt = -Infinity;
  /** The read in flight; `outdated` once invalidate() was called after it began. */
  private reading: { done: Promise<void>; outdated: boolean } | undefined;

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
    // A read that began before the last invalidate() may answer from before the change: wait for it
    // to end, then read again.
    if (this.reading?.outdated) await this.reading.done;
    if (this.now() - this.readAt >= this.ttlMs) {
      this.reading ??= this.read();
      await this.reading.done;
    }
    return this.value;
  }

  /** The next get() reads again, whatever the time since the last read. */
  invalidate(): void {
    this.readAt = -Infinity;
    if (this.reading) this.reading.outdated = true;
  }

  private read(): { done: Promise<void>; outdated: boolean } {
    const read = { done: Promise.resolve(), outdated: false };
    read.done = this.load()
      .then((value) => {
        this.value = value;
      })
      .catch(this.onError)
      .finally(() => {
        // Also after a failure: the next try waits the same time, not one per message.
        this.readAt = read.outdated ? -Infinity : this.now();
        if (this.reading === read) this.reading = undefined;
      });
    return read;
  }
}
