// Wake-ups inside one process: whoever makes work (an accept commit, a commit that queued webhook
// pushes, a stored inbound report, a dead process's released leases) emits a named signal, and the
// loops that take that work (lease-loop.ts) listen. Signals carry no data and are only hints: the
// database is the truth, and a loop that misses one still finds the work at its next poll
// (ARCHITECTURE.md, "Claim loops").

/** One named wake-up: any number of listeners, told synchronously on every emit. */
export class Signal {
  private readonly listeners = new Set<() => void>();

  /** Calls fn on every emit until the returned function is called. */
  on(fn: () => void): () => void {
    // Wrapped: the same function registered twice is told twice and unsubscribed once each.
    const entry = () => fn();
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /** Tells every listener. A listener that throws does not keep the others from hearing it. */
  emit(): void {
    for (const fn of [...this.listeners]) {
      try {
        fn();
      } catch {
        /* a wake-up is a hint; the listener's loop polls anyway */
      }
    }
  }
}

/** Every wake-up signal of one process, built once per process by the core (roles/core.ts). */
export class WakeSignals {
  /** Mail was queued for delivery (here, or in another process: db/postgres/queue-signal.ts relays it). */
  readonly messagesQueued = new Signal();
  /** A commit queued webhook pushes (delivery results, inbound reports). */
  readonly webhookPushesQueued = new Signal();
  /** Inbound reports are waiting to be processed (a dead process's were released). */
  readonly inboundStored = new Signal();
  /**
   * An account was paused or resumed by this process (reputation/guard.ts): the worker's list of held
   * accounts (reputation/paused-accounts.ts) is read again before its next message, not a second later.
   */
  readonly reputationChanged = new Signal();
}
