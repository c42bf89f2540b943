// Open sessions of untrusted clients on the receiver. The connection rate alone let one client hold
// every slot of the server with a few slow sessions; counting the sessions each client holds leaves
// room for the others. And a share that shrinks as the pool fills: with a fixed 10 each, 20 addresses
// filled the 200 slots and refused everyone else; now each newcomer still finds a slot until the
// pool is nearly full, and filling it takes many more addresses than before.
//
// The API's listener counts its connections per peer with it too, without a pool (http/connection-
// limits.ts). Pure: the caller asks, this answers (take) and counts (release).

/** How a client's share shrinks: it may hold one slot for every this many free ones (and always one). */
const FREE_SLOTS_PER_SHARE = 10;

export class SessionLimiter {
  private readonly open = new Map<string, number>();
  private total = 0;

  constructor(
    /** Sessions one client may hold open at once, with the pool empty; 0 = unlimited. */
    private readonly perClient: number,
    /** Sessions all untrusted clients may hold open at once. */
    private readonly pool = Number.POSITIVE_INFINITY,
  ) {}

  /**
   * Takes a slot for the client; false, taking nothing, when the pool is full or the client holds its
   * share already: `perClient`, less as the pool fills (one slot for every FREE_SLOTS_PER_SHARE free
   * ones, at least one).
   */
  take(client: string): boolean {
    if (this.total >= this.pool) return false;
    const n = this.open.get(client) ?? 0;
    if (this.perClient !== 0 && n >= this.share()) return false;
    this.open.set(client, n + 1);
    this.total++;
    return true;
  }

  /** Gives back a slot `take` gave (once per session, however it ended). */
  release(client: string): void {
    const n = this.open.get(client) ?? 0;
    if (n === 0) return;
    this.total--;
    // Forgetting a client at 0 keeps the map as small as the clients connected now.
    if (n === 1) this.open.delete(client);
    else this.open.set(client, n - 1);
  }

  /** Whether every slot of the pool is taken. */
  get full(): boolean {
    return this.total >= this.pool;
  }

  /** Sessions the client holds open. */
  held(client: string): number {
    return this.open.get(client) ?? 0;
  }

  /** What one client may hold now. */
  private share(): number {
    const free = this.pool - this.total;
    return Math.min(this.perClient, Math.max(1, Math.ceil(free / FREE_SLOTS_PER_SHARE)));
  }
}
