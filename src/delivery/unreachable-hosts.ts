// Which mail hosts could not be reached lately, so that a message whose destination has another host
// does not wait on one known to be down (ARCHITECTURE.md, "Unreachable hosts"). A host that drops
// connections silently costs every attempt the whole connect timeout (30 s) before the next MX host is
// tried: with its preferred host gone, each password reset to a domain arrived 30 s late. Exim keeps
// such a memory (its host retry records); Postfix marks a whole destination dead.
//
// A host is down after a connection to it failed without a word from its SMTP server (refused, timed
// out, unreachable, never greeted), for a wait that doubles with each failure in a row (30 s, 1 min,
// … 10 min). While it is down, deliveries skip it for the destination's other hosts. Once its wait has
// passed, one delivery at a time tries it again (a probe); every other one skips it until the probe
// has answered. Any reply from its SMTP server, even a refusal, makes it up again. When every host of
// a destination is down, all of them are tried as before: a message is never deferred untried here.
//
// Pure: the clock is passed in. Keys name a host as the transport reaches it (source address, host
// address, port); one process's memory, never shared.

/** The first wait after a failure; it doubles with each failure in a row, up to MAX_WAIT_MS. */
export const FIRST_WAIT_MS = 30_000;
export const MAX_WAIT_MS = 10 * 60_000;
/** A probe that has not answered by then is taken as lost: another delivery may try the host. */
export const PROBE_LIFETIME_MS = 5 * 60_000;
/** Hosts remembered at most; past it, those whose wait ended longest ago are forgotten first. */
export const MAX_HOSTS = 10_000;

interface Down {
  /** Failures in a row. */
  failures: number;
  /** Skipped until then. */
  until: number;
  /** A probe is in flight until then (0: none). */
  probeUntil: number;
}

/** Each host of a destination, in its order: to try now, or skipped until a time. */
export type HostPlan = { key: string; try: true } | { key: string; try: false; until: number };

export class UnreachableHosts {
  private readonly down = new Map<string, Down>();

  constructor(
    private readonly options: { firstWaitMs: number; maxWaitMs: number; probeLifetimeMs: number } = {
      firstWaitMs: FIRST_WAIT_MS,
      maxWaitMs: MAX_WAIT_MS,
      probeLifetimeMs: PROBE_LIFETIME_MS,
    },
  ) {}

  /**
   * Which of a destination's hosts (in MX order) a delivery starting `now` tries. A host whose wait
   * has passed is given to this delivery as a probe, unless another probe is in flight. When no host
   * would be tried, every one is.
   */
  plan(keys: readonly string[], now: number): HostPlan[] {
    const plans: HostPlan[] = keys.map((key) => {
      const d = this.down.get(key);
      if (d === undefined) return { key, try: true };
      if (now < d.until) return { key, try: false, until: d.until };
      if (now < d.probeUntil) return { key, try: false, until: d.probeUntil };
      return { key, try: true };
    });
    if (plans.every((p) => !p.try)) return keys.map((key) => ({ key, try: true }));
    // The probes granted: hosts still remembered as down that this delivery will try.
    for (const p of plans) {
      const d = p.try ? this.down.get(p.key) : undefined;
      if (d !== undefined) d.probeUntil = now + this.options.probeLifetimeMs;
    }
    return plans;
  }

  /** A connection to the host failed without any SMTP reply. */
  failed(key: string, now: number): void {
    const failures = (this.down.get(key)?.failures ?? 0) + 1;
    const wait = Math.min(this.options.maxWaitMs, this.options.firstWaitMs * 2 ** Math.min(failures - 1, 30));
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
