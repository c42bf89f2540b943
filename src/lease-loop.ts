// One claim/lease/wake loop for every queue a process works from a table under leases: the delivery
// worker's messages, the webhook dispatcher's pushes, the inbound recovery pass's reports
// (ARCHITECTURE.md, "Claim loops"). It claims as many items as it has free slots, runs each, claims
// again once a share of the slots is free, sleeps until the next item is due (at most pollMs) or until
// woken, and on stop waits for the work in flight and gives back the leases still held.
//
// A wake never gets lost: wake() marks the loop woken before anything else, and the loop checks the mark
// after every await between its claim and its sleep, so a wake that arrives during a claim or during
// the "when is the next item due" query is followed by another claim instead of a sleep until the next
// poll (a wake-up lost that way once made a graceful stop hang for a poll interval). Claims never
// overlap: one loop, one claim at a time.
//
// An item that waits long on something outside the process (a receiving server that never greets, never
// answers the end of DATA) may step aside: it goes on running and keeps its lease, but no longer fills
// a slot, so the loop claims another in its place. At most `asideLimit` items stand aside at once;
// past that, a waiting item keeps its slot (ARCHITECTURE.md, "Slow deliveries step aside"). When every
// slot is held so, up to `reserve` more items are claimed beyond the concurrency, from the groups that
// have nothing in flight (the claim's pool 'reserve'): one group's stuck work then cannot hold up every
// other group's. Up to `lane` more, apart from those, go to the caller's urgent items (pool 'lane': the
// delivery worker's mail with a deadline), so that neither pool can take the other's places. A lane
// item that stands aside, or no longer needs its place at all (its deadline passed: leaveLane), runs on
// in room of the lane's own (`laneAsideLimit`).

/** setTimeout/clearTimeout, injectable (tests drive the sleeps by hand). */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface LeaseLoopOptions<T> {
  /** Items run at once. */
  concurrency: number;
  /** Longest sleep between claims (other processes queue work too; the database is the truth). */
  pollMs: number;
  /**
   * Free slots at which a finished item wakes the loop to claim again (default a quarter of the slots,
   * at least one): one claim per item would cost a query per item, waiting for all slots would leave
   * them idle. The loop also claims when the last item finishes.
   */
  refillAt?: number;
  /** Items that may stand aside at once (their slots given to others); 0, the default: none. */
  asideLimit?: number;
  /**
   * Items that may run beyond the concurrency while every slot holds an item that could not step aside
   * (the aside limit reached); 0, the default: none. They are claimed from the pool 'reserve'.
   */
  reserve?: number;
  /**
   * More places beyond the concurrency, under the same condition as the reserve and apart from its
   * places, for the caller's urgent items (pool 'lane'); 0, the default: none.
   */
  lane?: number;
  /**
   * Lane items that may stand aside at once, in room of their own (the slots' may be full of another
   * group's stuck work): a stuck lane item then gives its place to the next; 0, the default: none.
   * Items that left the lane (leaveLane) count against it too, and while it holds more the lane claims
   * nothing: it bounds what the lane keeps running, as `asideLimit` bounds the slots'.
   */
  laneAsideLimit?: number;
  /**
   * Leases up to `slots` items (at least one); what it returns, the loop runs. `pool`: 'slots', the
   * usual claim; 'reserve', only from groups with nothing in flight; 'lane', only urgent items (the
   * caller's to say how).
   */
  claim(slots: number, pool: ClaimPool): Promise<T[]>;
  /**
   * Does the work of one claimed item, records it, and settles; its failures are its own to log.
   * `stepAside()` gives its slot to another item while it goes on (see above); false when the items
   * standing aside are at their limit, and the item keeps its slot.
   */
  run(item: T, stepAside: () => boolean): Promise<void>;
  /** An item's identity: an item claimed again while it still runs here is not run twice. */
  key(item: T): string;
  /**
   * After a claim that left slots free: how long until the next item is due (capped at pollMs). By
   * default pollMs. A throw counts as pollMs (the next claim reports the database's trouble).
   */
  nextWaitMs?(claimed: number): Promise<number>;
  /** False while this process may be counted dead (process-registry.ts): claim nothing new. */
  canClaim?(): boolean;
  /** A claim threw; the loop sleeps and tries again. */
  claimFailed?(err: unknown): void;
  /** After stop() waited for the work in flight: gives back every lease this owner still holds. */
  release?(): Promise<void>;
  timers?: Timers;
}

/** Which places a claim fills (LeaseLoopOptions.claim). */
export type ClaimPool = 'slots' | 'reserve' | 'lane';

export class LeaseLoop<T> {
  private running = false;
  private readonly inFlight = new Map<string, Promise<void>>();
  /** The keys of items in flight that stand aside: they fill no slot. */
  private readonly aside = new Set<string>();
  /** The keys of items in flight that asked to stand aside and could not (the aside limit reached). */
  private readonly stuck = new Set<string>();
  /** The keys of items in flight claimed for the reserve (and not standing aside since): no slot either. */
  private readonly reserved = new Set<string>();
  /** The keys of items in flight claimed for the lane (and not standing aside since): no slot either. */
  private readonly laned = new Set<string>();
  /**
   * The keys of lane items out of their place, still running: standing aside, or past the need of it
   * (leaveLane). No place, but the lane's own room (laneAsideLimit).
   */
  private readonly laneRoom = new Set<string>();
  private woken = false;
  private wakeUp: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private readonly timers: Timers;
  private readonly refillAt: number;

  constructor(private readonly options: LeaseLoopOptions<T>) {
    this.timers = options.timers ?? realTimers;
    this.refillAt = options.refillAt ?? Math.max(1, options.concurrency >> 2);
  }

  /** The keys of the items running now: the leases this loop knows it holds. */
  held(): string[] {
    return [...this.inFlight.keys()];
  }

  get started(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.cycle();
  }

  /**
   * The item `key`, claimed for the lane, no longer needs its place there (the delivery worker: its
   * deadline has passed, so it only waits for the reply to its final "."): it runs on in the lane's
   * room, even past its limit, and the place is claimed again once the room is back within it.
   */
  leaveLane(key: string): void {
    if (!this.laned.delete(key)) return;
    this.laneRoom.add(key);
    this.wake();
  }

  /** Work may be waiting: claim now instead of at the next poll. Wakes arriving together coalesce. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stops claiming, waits for the items in flight, then gives back the leases still held. */
  /**
   * Stops claiming, waits for the items in flight (at most `graceMs`, when given: those still running
   * then are given up, their leases released with the rest, and the process may end under them), and
   * gives back the leases still held.
   */
  async stop(graceMs?: number): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.loop;
    const inFlight = Promise.all(this.inFlight.values());
    if (graceMs === undefined) await inFlight;
    else {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([inFlight, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
    }
    await this.options.release?.();
  }

  private async cycle(): Promise<void> {
    const { pollMs } = this.options;
    while (this.running) {
      this.woken = false;
      // Places on reserve and in the lane are free only while no slot is.
      const slots = this.free();
      const pools: [ClaimPool, number][] =
        slots > 0
          ? [['slots', slots]]
          : [
              ['reserve', this.reserveFree()],
              ['lane', this.laneFree()],
            ];
      const reserve = slots <= 0;
      const mayClaim = this.options.canClaim?.() ?? true;
      // Every claim came back with all it asked for: there may be more due right now.
      let full = true;
      let asked = false;
      let claimedAny = 0;
      for (const [pool, free] of pools) {
        if (free <= 0 || !mayClaim) continue;
        asked = true;
        let claimed: T[] = [];
        try {
          claimed = await this.options.claim(free, pool);
        } catch (err) {
          this.options.claimFailed?.(err);
        }
        for (const item of claimed) {
          const key = this.options.key(item);
          // Our own lease ran out while the item still runs (a slow peer): the claim renewed it, and
          // running it a second time would do the work twice.
          if (this.inFlight.has(key)) continue;
          if (pool === 'reserve') this.reserved.add(key);
          else if (pool === 'lane') this.laned.add(key);
          this.track(key, item);
        }
        claimedAny += claimed.length;
        if (claimed.length < free) full = false;
      }
      if (asked && full) continue;
      if (this.woken && mayClaim) continue;
      // After a reserve claim that came back short, the mail still due is the stuck groups', which the
      // reserve does not take: waiting for its due time would claim again at once, and again.
      const ms =
        mayClaim && !reserve && (this.free() > 0 || this.reserveFree() > 0 || this.laneFree() > 0)
          ? await this.waitMs(claimedAny)
          : pollMs;
      // Checked again after the query: a wake (new work, or stop()) that came during it has nobody to
      // wake yet, and sleeping now would lose it until the next poll.
      if (!this.woken) await this.sleep(ms);
    }
  }

  private async waitMs(claimed: number): Promise<number> {
    if (!this.options.nextWaitMs) return this.options.pollMs;
    try {
      return Math.max(0, Math.min(this.options.pollMs, await this.options.nextWaitMs(claimed)));
    } catch {
      return this.options.pollMs;
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timers = this.timers;
      const done = () => {
        timers.clearTimeout(timer);
        if (this.wakeUp === done) this.wakeUp = undefined;
        resolve();
      };
      const timer = timers.setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  /**
   * Slots free: the concurrency less the items in flight that neither stand aside nor run on reserve
   * or in the lane (in a place or its room).
   */
  private free(): number {
    const elsewhere = this.aside.size + this.reserved.size + this.laned.size + this.laneRoom.size;
    return this.options.concurrency - (this.inFlight.size - elsewhere);
  }

  /**
   * Reserve places free: only while every slot holds an item that could not step aside. One slot held
   * by an item that may still finish soon keeps the loop claiming through it, in the usual turn.
   */
  private reserveFree(): number {
    return this.placesFree(this.options.reserve ?? 0, this.reserved);
  }

  /**
   * Lane places free: under the same condition as the reserve's (reserveFree), and none while the
   * lane's room holds more than its limit (items that left the lane at their deadline, still running,
   * may take it past it).
   */
  private laneFree(): number {
    const overfull = this.laneRoom.size > (this.options.laneAsideLimit ?? 0);
    return overfull ? 0 : this.placesFree(this.options.lane ?? 0, this.laned);
  }

  private placesFree(limit: number, taken: ReadonlySet<string>): number {
    if (limit <= taken.size || this.free() > 0) return 0;
    let stuckInSlots = 0;
    for (const key of this.stuck) if (!this.reserved.has(key) && !this.laned.has(key)) stuckInSlots++;
    return stuckInSlots >= this.options.concurrency ? limit - taken.size : 0;
  }

  private track(key: string, item: T): void {
    const stepAside = () => {
      if (!this.inFlight.has(key)) return false;
      // Aside already, or out of its lane place: it fills nothing to give up.
      if (this.aside.has(key) || this.laneRoom.has(key)) return true;
      if (this.laned.has(key)) {
        if (this.laneRoom.size >= (this.options.laneAsideLimit ?? 0)) return false;
        this.laned.delete(key);
        this.laneRoom.add(key);
        this.wake();
        return true;
      }
      if (this.aside.size >= (this.options.asideLimit ?? 0)) {
        // Woken once, when the item is first refused: it asks again every so often while it waits.
        if (!this.stuck.has(key)) {
          this.stuck.add(key);
          if (this.reserveFree() > 0 || this.laneFree() > 0) this.wake();
        }
        return false;
      }
      this.aside.add(key);
      this.stuck.delete(key);
      this.reserved.delete(key);
      if (this.free() >= this.refillAt) this.wake();
      return true;
    };
    const p = this.options.run(item, stepAside).catch(() => undefined);
    this.inFlight.set(key, p);
    void p.finally(() => {
      const onReserve = this.reserved.delete(key);
      const inLane = this.laned.delete(key);
      this.inFlight.delete(key);
      this.aside.delete(key);
      this.stuck.delete(key);
      // One out of the lane's place ended too: its room, and its group's turn in the lane, are free.
      const inLaneRoom = this.laneRoom.delete(key);
      if (this.free() >= this.refillAt || this.inFlight.size === 0 || onReserve || inLane || inLaneRoom)
        this.wake();
    });
  }
}
