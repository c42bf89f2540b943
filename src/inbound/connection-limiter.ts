// Connection rate per client IP for the receiver: a fixed one-minute window per address. Bounces
// arrive a few at a time from any one MTA; a client opening more is misbehaving or probing.
export class ConnectionLimiter {
  private windowStart = 0;
  private counts = new Map<string, number>();

  constructor(
    /** Connections per minute per IP; 0 = unlimited. */
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  /** Counts a connection; false when this IP is over its limit for the current minute. */
  admit(ip: string): boolean {
    if (this.perMinute === 0) return true;
    const t = this.now();
    if (t - this.windowStart >= 60_000) {
      // A new window: forgetting the old counts keeps the map as small as one minute's clients.
      this.windowStart = t;
      this.counts = new Map();
    }
    const n = (this.counts.get(ip) ?? 0) + 1;
    this.counts.set(ip, n);
    return n <= this.perMinute;
  }
}
