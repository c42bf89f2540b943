// The periodic blocklist check (in `serve` and `worker`): every interval one process, elected by a
// conditional update of the schedule row (scheduled-run.ts), looks every target up in every
// zone of its kind, stores the verdicts and reports what changed; the others only read the verdicts.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { BlocklistsRepo } from '../db/blocklists-repo.js';
import { newId } from '../ids.js';
import { ScheduledRun } from '../scheduled-run.js';
import { lookUp, type BlocklistDns } from './lookup.js';
import { lookups, nextListing, type BlocklistTarget, type Listing } from './query.js';
import type { BlocklistZone } from './zones.js';

export interface BlocklistMonitorOptions {
  /** Time between two checks (TXMAIL_DNSBL_INTERVAL). */
  intervalMs: number;
  /** How often a process looks whether the check is due. */
  pollMs: number;
  /** How long a claimed check lasts: past it (its process died), another process takes the check. */
  leaseMs: number;
  /** Look-ups in flight at once. */
  concurrency: number;
  /** The claim's owner id: the process's (process-registry.ts) in a service, else one of its own. */
  owner?: string;
  /** False while this process may be counted dead (process-registry.ts): take no check. */
  canClaim?: () => boolean;
}

export const DEFAULT_BLOCKLIST_MONITOR_OPTIONS: Omit<BlocklistMonitorOptions, 'intervalMs'> = {
  pollMs: 60_000,
  leaseMs: 10 * 60_000,
  concurrency: 8,
};

export interface ListingChangeReport {
  listing: Listing;
  change: 'listed' | 'delisted';
}

export interface CheckResult {
  /** Every verdict after the check, as stored. */
  listings: Listing[];
  changes: ListingChangeReport[];
}

export interface CheckPlan {
  targets: readonly BlocklistTarget[];
  zones: readonly BlocklistZone[];
}

/** What the service does with a check's result (operator mail, the worker's source addresses). */
export type CheckedHandler = (result: CheckResult) => Promise<void>;

export class BlocklistMonitor {
  private readonly scheduled: ScheduledRun<CheckResult>;

  constructor(
    private readonly repo: BlocklistsRepo,
    private readonly dns: BlocklistDns & { cancel?(): void },
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** What to look up: fixed, or read at each check (customers' return-path names come and go). */
    private readonly plan: CheckPlan | (() => Promise<CheckPlan>),
    checked: CheckedHandler,
    private readonly options: BlocklistMonitorOptions,
  ) {
    this.scheduled = new ScheduledRun(
      repo,
      clock,
      logger,
      'blocklist check',
      { ...options, owner: options.owner ?? `blocklists-${newId()}` },
      () => this.check(),
      checked,
    );
  }

  get owner(): string {
    return this.scheduled.owner;
  }

  /** Checks this process ran to the end (tests wait on it). */
  get runs(): number {
    return this.scheduled.runs;
  }

  start(): void {
    this.scheduled.start();
  }

  async stop(): Promise<void> {
    const stopped = this.scheduled.stop();
    // A list that does not answer would hold the shutdown for the resolver's timeouts.
    this.dns.cancel?.();
    await stopped;
  }

  /**
   * Runs the check if it is due and no other process holds it; true when this process ran it to the
   * end with its claim still held (only then is `checked` called).
   */
  tick(): Promise<boolean> {
    return this.scheduled.tick();
  }

  /** Looks every target up in every zone of its kind; stores and answers the verdicts. */
  async check(): Promise<CheckResult | undefined> {
    const plan = typeof this.plan === 'function' ? await this.plan() : this.plan;
    const planned = lookups(plan.targets, plan.zones);
    await this.repo.keepOnly(planned.map((p) => ({ target: p.target.target, zone: p.zone })));
    const previous = new Map((await this.repo.all()).map((l) => [`${l.target} ${l.zone}`, l]));
    const listings: Listing[] = [];
    const changes: ListingChangeReport[] = [];
    const failures = new Map<string, { error: string; count: number }>();
    let next = 0;
    const worker = async () => {
      while (next < planned.length && !this.scheduled.stopping) {
        const p = planned[next++]!;
        const { verdict, reason } = await lookUp(this.dns, p.name);
        const { listing, change } = nextListing(
          previous.get(`${p.target.target} ${p.zone}`),
          p,
          verdict,
          reason,
          this.clock.now(),
        );
        listings.push(listing);
        if (change) changes.push({ listing, change });
        if (verdict.kind === 'refused' || verdict.kind === 'unknown') {
          const f = failures.get(p.zone) ?? { error: verdict.error, count: 0 };
          f.count++;
          failures.set(p.zone, f);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, planned.length) }, worker));
    // Stopped midway: the look-ups were cancelled, their "no answer" is not worth storing.
    if (this.scheduled.stopping) return undefined;
    await this.repo.save(listings);
    for (const { listing, change } of changes) {
      const fields = {
        target: listing.target,
        zone: listing.zone,
        answer: listing.answer,
        reason: listing.reason,
      };
      if (change === 'listed') this.logger.warn(fields, 'listed on a blocklist');
      else this.logger.info(fields, 'no longer listed on a blocklist');
    }
    for (const [zone, f] of failures) {
      this.logger.warn({ zone, lookups: f.count, error: f.error }, 'blocklist look-ups gave no verdict');
    }
    listings.sort((a, b) => a.target.localeCompare(b.target) || a.zone.localeCompare(b.zone));
    return { listings, changes };
  }
}
