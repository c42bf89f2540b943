// The daily TLS-RPT reports (RFC 8460), in `serve` and `worker`: every process polls; one, elected by a
// conditional UPDATE of the schedule row (scheduled-run.ts, as the blocklist check), runs. A run looks at the finished UTC days of the last few (a day is reported once every
// process has flushed its counts: an hour after it ends), and for each policy domain with sessions that
// day and a `_smtp._tls` record, sends the day's report to each `rua` not yet sent to. A report is marked
// sent only when accepted; the others are tried again on later runs while their day is in the window.
// ARCHITECTURE.md, "TLS policy".
import { gzipSync } from 'node:zlib';
import type { Logger } from 'pino';
import { utcDay, type Clock } from '../clock.js';
import type { TlsReportsRepo } from '../db/tls-reports-repo.js';
import { signMessage, type SigningKey } from '../dkim/sign.js';
import { DnsError, type DnsResolver } from '../dns/resolver.js';
import { newId } from '../ids.js';
import { ScheduledRun } from '../scheduled-run.js';
import { buildReport, parseTlsRptRecord, reportFileName } from './report.js';
import { composeReportMail } from './report-mail.js';
import type { ReportSenders } from './send-report.js';

const DAY_MS = 86_400_000;

export interface TlsReporterOptions {
  /** The submitter and organization-name: TXMAIL_HOSTNAME. */
  submitter: string;
  /** contact-info. */
  contact: string;
  /** The report mail's From and envelope sender (an address of the test domain, whose key signs). */
  from: string;
  /** How often a run is due. */
  intervalMs: number;
  pollMs: number;
  leaseMs: number;
  /** A day is reported this long after it ends (every process has flushed its counts by then). */
  settleMs: number;
  /** Finished days looked at in a run (the retry window). */
  retryDays: number;
  /** Tries of one report at most. */
  maxAttempts: number;
  /** Counts and sends older than this many days are deleted. */
  keepDays: number;
  owner?: string;
  canClaim?: () => boolean;
}

export const DEFAULT_REPORTER_OPTIONS: Omit<TlsReporterOptions, 'submitter' | 'contact' | 'from'> = {
  intervalMs: 3_600_000,
  pollMs: 60_000,
  leaseMs: 10 * 60_000,
  settleMs: 3_600_000,
  retryDays: 3,
  maxAttempts: 8,
  keepDays: 8,
};

export interface TlsReporterDeps {
  repo: TlsReportsRepo;
  dns: Pick<DnsResolver, 'txt'>;
  senders: ReportSenders;
  /** The test domain's DKIM key (dkim/). */
  signingKey: () => Promise<SigningKey | undefined>;
  clock: Clock;
  logger: Logger;
  /** Before a run: this process's counts into the table (counter.ts flush). */
  beforeRun?: () => Promise<void>;
}

/** The finished days a run at `now` looks at, oldest first. Pure. */
export function reportableDays(now: number, settleMs: number, retryDays: number): string[] {
  const days: string[] = [];
  for (let i = retryDays; i >= 1; i--) {
    const day = utcDay(now - i * DAY_MS);
    const end = Date.parse(`${day}T00:00:00Z`) + DAY_MS;
    if (end + settleMs <= now) days.push(day);
  }
  return days;
}

export class TlsReporter {
  private readonly scheduled: ScheduledRun<number>;

  constructor(
    private readonly deps: TlsReporterDeps,
    private readonly options: TlsReporterOptions,
  ) {
    this.scheduled = new ScheduledRun(
      deps.repo,
      deps.clock,
      deps.logger,
      'TLS report run',
      { ...options, owner: options.owner ?? `tls-reports-${newId()}` },
      () => this.run(),
    );
  }

  get owner(): string {
    return this.scheduled.owner;
  }

  /** Runs this process finished (tests wait on it). */
  get runs(): number {
    return this.scheduled.runs;
  }

  start(): void {
    this.scheduled.start();
  }

  stop(): Promise<void> {
    return this.scheduled.stop();
  }

  /** Runs if due and no other process holds the run; true when this process ran it to the end. */
  tick(): Promise<boolean> {
    return this.scheduled.tick();
  }

  /**
   * Sends what is due; answers how many reports were accepted. Before each domain the lease is renewed
   * and the run's ownership checked: a run that lost it (its lease ran out during a slow send and
   * another process took the run) stops, so a report is not sent twice, and what was tried is read
   * again then, so a report another run sent meanwhile is not sent again. Stopped part-way (shutdown,
   * lost lease): undefined, and the run is given back rather than finished.
   */
  private async run(): Promise<number | undefined> {
    const { repo, clock, logger } = this.deps;
    await this.deps.beforeRun?.();
    const now = clock.now();
    let sent = 0;
    for (const day of reportableDays(now, this.options.settleMs, this.options.retryDays)) {
      for (const domain of await repo.domainsOn(day)) {
        if (this.scheduled.stopping) return undefined;
        if (!(await repo.extendRun(this.owner, clock.now() + this.options.leaseMs))) {
          logger.warn({ owner: this.owner }, 'TLS report run taken over by another process; stopped');
          return undefined;
        }
        const tried = await repo.sendsOn(day, domain);
        // Done: no record to report to, or every rua either took the report or was tried enough.
        if (
          tried.length > 0 &&
          tried.every((s) => s.sent_at !== null || s.attempts >= this.options.maxAttempts)
        )
          continue;
        try {
          sent += await this.report(domain, day, tried);
        } catch (err) {
          logger.warn({ err, domain, day }, 'TLS report failed');
        }
      }
    }
    await repo.deleteBefore(utcDay(now - this.options.keepDays * DAY_MS));
    return sent;
  }

  private async report(
    domain: string,
    day: string,
    tried: { rua: string; sent_at: number | null; attempts: number }[],
  ): Promise<number> {
    const { repo, clock, logger, senders } = this.deps;
    const rua = await this.ruaOf(domain);
    if (rua === 'temporary') return 0;
    if (rua === 'none') {
      await repo.recordSend(domain, day, '', clock.now(), null);
      return 0;
    }
    const due = rua.filter((u) => {
      const t = tried.find((s) => s.rua === u);
      return !t || (t.sent_at === null && t.attempts < this.options.maxAttempts);
    });
    if (due.length === 0) return 0;
    const { submitter } = this.options;
    const report = buildReport({
      organization: submitter,
      contact: this.options.contact,
      day,
      policyDomain: domain,
      counts: await repo.counts(day, domain),
    });
    const gzip = gzipSync(JSON.stringify(report));
    const fileName = reportFileName(submitter, domain, day, report['report-id']);
    let sent = 0;
    for (const uri of due) {
      let error: string | null = null;
      try {
        if (uri.toLowerCase().startsWith('mailto:')) {
          const to = decodeURIComponent(uri.slice('mailto:'.length).split('?')[0]!);
          const key = await this.deps.signingKey();
          if (!key) throw new Error('no DKIM key for the report mail');
          const raw = composeReportMail({
            from: this.options.from,
            to,
            policyDomain: domain,
            submitter,
            reportId: report['report-id'],
            fileName,
            gzip,
            date: new Date(clock.now()),
          });
          await senders.mail(to, this.options.from, signMessage(raw, key, clock.now()));
        } else {
          await senders.post(uri, gzip);
        }
        sent++;
      } catch (err) {
        error = (err as Error).message.slice(0, 500);
      }
      // The rua's scheme and host only: a URL's path or query may carry the receiver's token.
      const where = redactRua(uri);
      if (error === null) logger.info({ domain, day, rua: where }, 'TLS report sent');
      else logger.warn({ domain, day, rua: where, error }, 'TLS report not accepted; tried again later');
      await repo.recordSend(domain, day, uri, clock.now(), error);
    }
    return sent;
  }

  private async ruaOf(domain: string): Promise<string[] | 'none' | 'temporary'> {
    let records: string[];
    try {
      records = await this.deps.dns.txt(`_smtp._tls.${domain}`);
    } catch (err) {
      if (err instanceof DnsError && err.failure !== 'temporary') return 'none';
      return 'temporary';
    }
    const parsed = parseTlsRptRecord(records);
    return 'rua' in parsed ? parsed.rua : 'none';
  }
}

/** A rua as logged: `mailto:` with its domain, `https:` with its origin. */
export function redactRua(uri: string): string {
  if (uri.toLowerCase().startsWith('mailto:')) return `mailto:…@${uri.slice(uri.lastIndexOf('@') + 1)}`;
  try {
    return new URL(uri).origin;
  } catch {
    return 'https:';
  }
}
