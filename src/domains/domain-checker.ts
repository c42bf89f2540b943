// The periodic re-check of domains (in `serve` and `worker`): claims due domains under a lease, so any
// number of processes share the work and a domain is checked by one at a time; a process that dies
// leaves leases that the live processes release (process-registry.ts), or that expire, and the domains
// are due again.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { DomainsRepo } from '../db/domains-repo.js';
import { newId } from '../ids.js';
import type { Domains } from './domains.js';

export interface DomainCheckerOptions {
  /** How often to look for due domains. */
  pollMs: number;
  /** Domains claimed (and checked concurrently) at a time. */
  batch: number;
  /** How long a claim lasts: longer than a check with slow DNS can take. */
  leaseMs: number;
  /** The lease owner id: the process's (process-registry.ts) in a service, else one of its own. */
  owner?: string;
  /** False while this process may be counted dead (process-registry.ts): claim nothing new. */
  canClaim?: () => boolean;
}

export const DEFAULT_DOMAIN_CHECKER_OPTIONS: DomainCheckerOptions = {
  pollMs: 30_000,
  batch: 10,
  leaseMs: 5 * 60_000,
};

export class DomainChecker {
  readonly owner: string;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private started = false;
  private stopping = false;

  constructor(
    private readonly domains: Domains,
    private readonly repo: DomainsRepo,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: DomainCheckerOptions = DEFAULT_DOMAIN_CHECKER_OPTIONS,
  ) {
    this.owner = options.owner ?? `domains-${newId()}`;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    await this.repo.releaseLeases(this.owner).catch(() => undefined);
  }

  /** Checks every domain due now, batch after batch; answers how many were checked. */
  async runOnce(): Promise<number> {
    let checked = 0;
    for (;;) {
      if (!(this.options.canClaim?.() ?? true)) return checked;
      const now = this.clock.now();
      const due = await this.repo.claimDue(this.owner, now, now + this.options.leaseMs, this.options.batch);
      await Promise.all(
        due.map(async (row) => {
          try {
            const after = await this.domains.checkAndRecord(row, this.owner);
            if (after && after.status !== row.status) {
              this.logger.info(
                { domain: row.name, from: row.status, to: after.status },
                'domain status changed',
              );
            }
          } catch (err) {
            // The lease expires and the domain is tried again then.
            this.logger.warn({ err, domain: row.name }, 'domain check failed');
          }
        }),
      );
      checked += due.length;
      if (due.length < this.options.batch || this.stopping) return checked;
    }
  }

  private schedule(delay: number): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .then(() => undefined)
        .catch((err: unknown) => this.logger.error({ err }, 'domain checks failed'))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.options.pollMs);
        });
    }, delay);
    this.timer.unref();
  }
}
