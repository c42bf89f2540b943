// Work a request starts but does not wait for: it runs after the answer is sent, so the answer cannot
// tell anything by its timing about what the work found (a password reset for an address with an
// account mails a link; one without does nothing). Failures go to `onError`; close() waits for all of it.

export class DeferredWork {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly onError: (err: unknown) => void) {}

  /**
   * Runs `task` on a later turn of the event loop: the request's answer, which settles in the current
   * turn's promise jobs, is written first. Never throws into the caller.
   */
  defer(task: () => Promise<void>): void {
    const run: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch(this.onError)
      .finally(() => this.pending.delete(run));
    this.pending.add(run);
  }

  /** Resolves once every deferred task, including any a task deferred in turn, has finished. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
