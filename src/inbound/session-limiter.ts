// Open sessions per client on the receiver. The connection rate alone let one client hold every slot of
// the server with a few slow sessions; counting the sessions it holds open leaves room for everyone else.
export class SessionLimiter {
  private readonly open = new Map<string, number>();

  constructor(
    /** Sessions one client may hold open at once; 0 = unlimited. */
    private readonly perClient: number,
  ) {}

  /** Takes a slot for the client; false, taking nothing, when it already holds `perClient`. */
  take(client: string): boolean {
    const n = this.open.get(client) ?? 0;
    if (this.perClient !== 0 && n >= this.perClient) return false;
    this.open.set(client, n + 1);
    return true;
  }

  /** Gives back a slot `take` gave (once per session, however it ended). */
  release(client: string): void {
    const n = this.open.get(client) ?? 0;
    // Forgetting a client at 0 keeps the map as small as the clients connected now.
    if (n <= 1) this.open.delete(client);
    else this.open.set(client, n - 1);
  }

  /** Sessions the client holds open. */
  held(client: string): number {
    return this.open.get(client) ?? 0;
  }
}
