// A periodic job that one process runs per interval, whatever the number of processes (the blocklist
// check, the TLS reports): every process polls; the one whose conditional UPDATE of the schedule row
// claims the run (db/run-schedule-repo.ts) does the work, then sets when the next is due. A run that
// fails is due again at once (the next poll retries); a process that dies mid-run leaves it due when its
// lease ends. The job's own work is `work`; this is only the timer, the claim and the shutdown.
import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { RunScheduleRepo } from './db/run-schedule-repo.js';

export interface ScheduledRunOptions {
  /** The claim's owner id: the process's (process-registry.ts) in a service, else the job's own. */
  owner: string;
  /** Time between two runs. */
  intervalMs: number;
  /** How often this process looks whether a run is due. */
  pollMs: number;
  /** How long a claimed run lasts: past it (its process died), another process takes the run. */
  leaseMs: number;
  /** False while this process may be counted dead (process-registry.ts): take no run. */
  canClaim?: () => boolean;
}

/**
 * What a run did, or `undefined` when it stopped part-way (the service is stopping, or it lost its
 * claim): the run is then released, not finished, and `done` is not called. A long run reads its job's
 * `stopping` between steps.
 */
type RunWork<T> = () => Promise<T | undefined>;

export class ScheduledRun<T> {
  /** Runs this process finished with its claim still held (tests wait on it). */
  runs = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private started = false;
  private stoppingNow = false;

  constructor(
    private readonly repo: Pick<RunScheduleRepo, 'claimRun' | 'finishRun' | 'releaseRun'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** The job's name in log lines ("blocklist check", "TLS report run"). */
    private readonly name: string,
    private readonly options: ScheduledRunOptions,
    private readonly work: RunWork<T>,
    /** After a finished run, with its result (reports made only by the run that kept its claim). */
    private readonly done?: (result: T) => Promise<void>,
  ) {}

  get owner(): string {
    return this.options.owner;
  }

  /** True once stop() was called: a long run checks it between steps. */
  get stopping(): boolean {
    return this.stoppingNow;
  }

  start(): void {
    if (this.started || this.stoppingNow) return;
    this.started = true;
    this.schedule(0);
  }

  /** No new run; waits for the one in progress (which sees `stopping` and ends early). */
  async stop(): Promise<void> {
    this.stoppingNow = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Runs if due and no other process holds the run; true when this process ran it to the end. */
  async tick(): Promise<boolean> {
    if (this.options.canClaim && !this.options.canClaim()) return false;
    const now = this.clock.now();
    if (!(await this.repo.claimRun(this.owner, now, now + this.options.leaseMs))) return false;
    let result: T | undefined;
    try {
      result = await this.work();
    } catch (err) {
      await this.repo.releaseRun(this.owner, this.clock.now()).catch(() => undefined);
      throw err;
    }
    const end = this.clock.now();
    if (result === undefined) {
      await this.repo.releaseRun(this.owner, end).catch(() => undefined);
      return false;
    }
    if (!(await this.repo.finishRun(this.owner, end, end + this.options.intervalMs))) {
      // The claim ran out mid-way and another process took the run: it reports from its own run;
      // reporting this one too would say everything twice.
      this.logger.warn({ owner: this.owner }, `${this.name} outlasted its claim; another process reports`);
      return false;
    }
    try {
      await this.done?.(result);
    } finally {
      this.runs++;
    }
    return true;
  }

  private schedule(ms: number): void {
    if (this.stoppingNow) return;
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .then(
          () => undefined,
          (err: unknown) => this.logger.warn({ err }, `${this.name} failed`),
        )
        .finally(() => {
          this.running = undefined;
          this.schedule(this.options.pollMs);
        });
    }, ms);
    this.timer.unref();
  }
}
