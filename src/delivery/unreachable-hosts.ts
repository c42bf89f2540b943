// Which mail hosts could not be reached lately, so that a message whose destination has another host
// does not wait on one known to be down (ARCHITECTURE.md, "Unreachable hosts"). A host that drops
// connections silently costs every attempt the whole connect timeout (30 s) before the next MX host is
// tried: with its preferred host gone, each password reset to a domain arrived 30 s late. Exim keeps
// such a memory (its host retry records); Postfix marks a whole destination dead.
//
// A host is down after a connection to it failed before its SMTP server answered with a reply code
// (refused, timed out, unreachable, never greeted, dropped during EHLO or STARTTLS), for a wait that
// doubles with each failure in a row (30 s, 1 min, … 10 min; the failures of deliveries that were
// talking to it at once are one). While it is down, deliveries skip it for the destination's other
// hosts. Once its wait has passed, the first delivery to come to it tries it again (a probe); every
// other one skips it until the probe has answered. Any reply code from its SMTP server, even a
// refusal, makes it up again. When a delivery skipped every host of its destination, it tries them all
// as before: a message is never deferred untried here.
//
// Pure: the clock is passed in. Keys name a host as the transport reaches it (source address, host
// address, port); one process's memory, never shared.

/** The first wait after a failure; it doubles with each failure in a row, up to MAX_WAIT_MS. */
export const FIRST_WAIT_MS = 30_000;
export const MAX_WAIT_MS = 10 * 60_000;
/** A probe that has not answered by then is taken as lost: another delivery may try the host. */
export const PROBE_LIFETIME_MS = 5 * 60_000;
/** Hosts remembered at most; past it, the one whose last failure is oldest is forgotten first. */
export const MAX_HOSTS = 10_000;

interface Down {
  /** Failures in a row. */
  failures: number;
  /** Skipped until then. */
  until: number;
  /** A probe is in flight until then (0: none). */
  probeUntil: number;
}

export class UnreachableHosts {
  private readonly down = new Map<string, Down>();

  /**
   * Whether a delivery tries the host `key` now, asked as it comes to the host in its MX order (not
   * before: the hosts before it may take the message, or take long enough for its wait to pass). A
   * host down and still waiting, or being probed by another delivery, is skipped; a host whose wait
   * has passed is tried, and this delivery becomes its probe.
   */
  mayTry(key: string, now: number): boolean {
    const d = this.down.get(key);
    if (d === undefined) return true;
    if (now < d.until || now < d.probeUntil) return false;
    d.probeUntil = now + PROBE_LIFETIME_MS;
    return true;
  }

  /**
   * A connection to the host failed without any SMTP reply. Failures while it is already down (the
   * deliveries that were talking to it when it went silent, each failing on its own) are the same
   * failure: only one after its wait has passed (its probe's) counts as another in a row.
   */
  failed(key: string, now: number): void {
    const known = this.down.get(key);
    if (known !== undefined && now < known.until) return;
    const failures = (known?.failures ?? 0) + 1;
    const wait = Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(failures - 1, 30));
    this.down.delete(key); // re-inserted last: the map's order is the order of last failure
    this.down.set(key, { failures, until: now + wait, probeUntil: 0 });
    if (this.down.size > MAX_HOSTS) {
      const oldest = this.down.keys().next().value;
      if (oldest !== undefined) this.down.delete(oldest);
    }
  }

  /** The host's SMTP server answered (whatever it said). */
  reached(key: string): void {
    this.down.delete(key);
  }

  /** Hosts remembered as down now (whether or not their wait has passed). */
  get size(): number {
    return this.down.size;
  }
}
