// Bytes held in memory at once, in all and by client network: the API's request bodies
// (http/body-memory.ts) and the inbound receiver's messages being received (inbound/receiver.ts) are
// each counted against one, so that many clients sending large bodies at once cannot take the
// process's memory, and one client network cannot take the whole budget (SECURITY.md).

/** Bytes allowed at once: in all, and from one client network; 0: no such limit. */
export interface MemoryLimits {
  total: number;
  perPeer: number;
}

/**
 * How one take is limited. `perPeer: false`: not held to the network's share (the receiver's trusted
 * networks); `leave`: bytes of the whole that must stay free after it (kept for those networks).
 */
export interface TakeOptions {
  perPeer?: boolean;
  leave?: number;
}

export class MemoryBudget {
  private used = 0;
  private readonly byPeer = new Map<string, number>();

  /** `onChange`: told the bytes held in all after each change (a metrics gauge). */
  constructor(
    private readonly limits: MemoryLimits,
    private readonly onChange: (held: number) => void = () => undefined,
  ) {}

  /** Counts `bytes` more for `peer`, unless that would pass either limit (then nothing is counted). */
  take(peer: string, bytes: number, options: TakeOptions = {}): boolean {
    if (bytes > this.room(peer, options)) return false;
    this.used += bytes;
    this.byPeer.set(peer, (this.byPeer.get(peer) ?? 0) + bytes);
    this.onChange(this.used);
    return true;
  }

  give(peer: string, bytes: number): void {
    if (bytes === 0) return;
    this.used -= bytes;
    const left = (this.byPeer.get(peer) ?? 0) - bytes;
    if (left > 0) this.byPeer.set(peer, left);
    else this.byPeer.delete(peer);
    this.onChange(this.used);
  }

  /** Bytes `peer` may still take (Infinity when neither limit is set). */
  room(peer: string, { perPeer = true, leave = 0 }: TakeOptions = {}): number {
    const total = this.limits.total > 0 ? this.limits.total - leave - this.used : Infinity;
    const mine =
      perPeer && this.limits.perPeer > 0 ? this.limits.perPeer - (this.byPeer.get(peer) ?? 0) : Infinity;
    return Math.max(0, Math.min(total, mine));
  }

  /** Bytes held now: in all, and by `peer`. */
  held(peer?: string): number {
    return peer === undefined ? this.used : (this.byPeer.get(peer) ?? 0);
  }
}
