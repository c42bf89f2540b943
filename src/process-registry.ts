// The registry of live processes (ARCHITECTURE.md "Durability"): leases that die with their holder.
//
// Every process that takes leases registers under the id it writes as their owner and beats every
// `heartbeatMs` on its own timer. Every `heartbeatMs` each live process sweeps: a registered process
// whose heartbeat is older than `deadMs` (three missed beats), or one on this host whose pid is gone, is
// dead, and its leases (messages, webhook pushes, inbound reports, domain checks) are released at once,
// instead of waiting out the long lease, which stays as a backstop. A process starting sweeps before it
// claims, so a `txmail serve` restarted after `kill -9` takes its predecessor's messages back at once.
//
// The duplicate window stays where it was: a process that cannot beat (its database unreachable) stops
// claiming one beat before others may count it dead (`canClaim`), and work it still has in flight when
// its leases are taken is given up at its record, which the lease guard refuses (queue-repo.ts). A
// process that finds its row swept registers again: its old leases are gone, not its ability to work.
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { ProcessesRepo, ProcessRow } from './db/processes-repo.js';
import { newId } from './ids.js';
import { WakeSignals } from './wake-signals.js';

export interface ProcessRegistryOptions {
  heartbeatMs: number;
  /** A process whose heartbeat is older than this is dead; three missed beats by default. */
  deadMs: number;
  /** This process as others see it (tests pretend to be other processes). */
  host: string;
  pid: number;
  boot: number;
  /** Whether a pid runs on this host (`process.kill(pid, 0)`); tests replace it. */
  pidAlive: (pid: number) => boolean;
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function defaultRegistryOptions(heartbeatSeconds: number): ProcessRegistryOptions {
  return {
    heartbeatMs: heartbeatSeconds * 1000,
    deadMs: heartbeatSeconds * 3000,
    host: hostname(),
    pid: process.pid,
    boot: Math.round(performance.timeOrigin),
    pidAlive,
  };
}

export class ProcessRegistry {
  /** The lease owner id of everything this process claims. */
  readonly id = `proc-${newId()}`;
  private timer: NodeJS.Timeout | undefined;
  private starting: Promise<void> | undefined;
  private beating: Promise<void> | undefined;
  /** When the last heartbeat was written (the registration counts as one). */
  private lastBeat: number | undefined;
  /** Times this process found itself counted dead (its leases released) and registered again. */
  private countedDead = 0;
  private stopped = false;
  /** Whether this process delivers mail (deliversMail): so its row says, for the others' count. */
  private delivers = false;
  /** The live processes that deliver mail, as the last sweep counted them (deliveryWorkers). */
  private deliverers = 1;

  constructor(
    private readonly repo: ProcessesRepo,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: ProcessRegistryOptions,
    /** Told what a sweep released: its work waits here now, not at the next poll (wake-signals.ts). */
    private readonly signals: WakeSignals = new WakeSignals(),
  ) {}

  /** Registers this process and sweeps the dead at once; then beats and sweeps every heartbeatMs. */
  start(): Promise<void> {
    this.starting ??= this.begin().catch((err: unknown) => {
      this.starting = undefined; // a second start tries afresh
      throw err;
    });
    return this.starting;
  }

  private async begin(): Promise<void> {
    this.stopped = false;
    await this.register();
    await this.sweep();
    this.timer = setInterval(() => {
      // One beat at a time: a slow database never piles them up.
      this.beating ??= this.beat().finally(() => (this.beating = undefined));
    }, this.options.heartbeatMs);
    this.timer.unref();
  }

  /**
   * False once this process has gone long enough without a heartbeat that others may soon count it
   * dead: it must not claim more work (its leases may be released under it). True again after a beat.
   */
  canClaim(): boolean {
    if (this.lastBeat === undefined) return false;
    const age = this.clock.now() - this.lastBeat;
    return age < this.options.deadMs - this.options.heartbeatMs;
  }

  /**
   * A check for leases taken now: true while this process has not been counted dead since (its leases
   * released, maybe taken by another process) and has not gone so long without a heartbeat that others
   * may count it dead. A process resumed after a pause (SIGSTOP, a frozen virtual machine) fails it
   * whichever comes first, its overdue heartbeat finding it counted dead or its work going on.
   */
  leaseCheck(): () => boolean {
    const times = this.countedDead;
    return () => this.countedDead === times && this.canClaim();
  }

  /**
   * This process delivers mail (the worker role): its row says so from now on, and it is one of the
   * processes among which each destination's limits are shared (deliveryWorkers).
   */
  async deliversMail(): Promise<void> {
    if (this.delivers) return;
    // Written first when registered: a failed write leaves the flag unset, so the next start tries again.
    if (this.lastBeat !== undefined) await this.repo.setDelivers(this.id);
    this.delivers = true;
  }

  /**
   * How many live processes deliver mail, this one included when it does (at least 1), as of the last
   * sweep (every heartbeat): each takes that share of a destination's connections and rate
   * (delivery/destination-limits.ts `share`), so that the worker processes together keep to the limits.
   */
  deliveryWorkers(): number {
    return this.deliverers;
  }

  /** One heartbeat and one sweep (the timer's work; tests call it with a manual clock). */
  async beat(): Promise<void> {
    try {
      const now = this.clock.now();
      if (await this.repo.heartbeat(this.id, now)) this.lastBeat = now;
      else {
        this.countedDead += 1;
        this.logger.warn({ processId: this.id }, 'this process was counted dead; registering again');
        await this.register();
      }
    } catch (err) {
      this.logger.warn({ err, processId: this.id }, 'could not write the heartbeat');
      return;
    }
    await this.sweep().catch((err: unknown) =>
      this.logger.warn({ err }, 'could not release the leases of dead processes'),
    );
  }

  /** Releases the leases of every dead process; returns the owners released. */
  async sweep(): Promise<string[]> {
    const now = this.clock.now();
    const rows = await this.repo.all();
    const dead = rows.filter((p) => p.id !== this.id && this.isDead(p, now));
    this.deliverers = liveDeliverers(rows, dead, this.id, this.delivers);
    const released: string[] = [];
    for (const p of dead) {
      const counts = await this.repo.releaseOwner(p.id);
      released.push(p.id);
      this.logger.info(
        { processId: p.id, host: p.host, pid: p.pid, ...counts },
        'released the leases of a dead process',
      );
      if (counts.messages > 0) this.signals.messagesQueued.emit();
      if (counts.webhookPushes > 0) this.signals.webhookPushesQueued.emit();
      if (counts.inboundReports > 0) this.signals.inboundStored.emit();
    }
    return released;
  }

  /** Stops the timer only, as `kill -9` would, leaving the row and the leases (tests). */
  async stopBeating(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
  }

  /** Stops beating and removes this process's row; its components gave their leases back already. */
  async stop(): Promise<void> {
    if (!this.starting) return;
    await this.starting.catch(() => undefined);
    this.starting = undefined;
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
    // Whatever is still leased to us goes back now: nobody here will record it.
    await this.repo.releaseOwner(this.id).catch((err: unknown) => {
      this.logger.warn({ err }, 'could not deregister this process');
    });
  }

  private async register(): Promise<void> {
    if (this.stopped) return;
    const now = this.clock.now();
    const { host, pid, boot } = this.options;
    await this.repo.register({
      id: this.id,
      host,
      pid,
      boot,
      started_at: now,
      heartbeat_at: now,
      delivers: this.delivers ? 1 : 0,
    });
    this.lastBeat = now;
  }

  private isDead(p: ProcessRow, now: number): boolean {
    if (now - Number(p.heartbeat_at) > this.options.deadMs) return true;
    if (p.host !== this.options.host) return false;
    // On this host the pid tells at once: ours with another boot time is a predecessor whose pid we
    // reuse (a container's pid 1); ours with our boot time is another registry in this very process.
    if (Number(p.pid) === this.options.pid) return Number(p.boot) !== this.options.boot;
    return !this.options.pidAlive(Number(p.pid));
  }
}

/**
 * The processes that deliver mail among `rows` but the `dead`, counting this one (`self`) when it
 * delivers whether or not its row is there yet (a sweep before its registration, or after it was
 * swept); at least 1.
 */
export function liveDeliverers(
  rows: readonly ProcessRow[],
  dead: readonly ProcessRow[],
  self: string,
  selfDelivers: boolean,
): number {
  const gone = new Set(dead.map((p) => p.id));
  const others = rows.filter((p) => p.id !== self && Number(p.delivers) === 1 && !gone.has(p.id)).length;
  return Math.max(1, others + (selfDelivers ? 1 : 0));
}
