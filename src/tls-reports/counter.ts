// The Deliverer's `tlsReports`: each attempt's sessions counted in memory (record() is a few map
// updates and never throws, so delivery never waits for it or fails by it), added to the shared table
// every minute and when the process stops. A flush that fails keeps its counts for the next one.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { TlsReportsRepo } from '../db/tls-reports-repo.js';
import { keyText, sessionKeys, type AttemptTls, type SessionCount } from './counts.js';

export interface TlsReportCounterOptions {
  flushMs: number;
  /** Distinct keys held in memory at most (a database down for long): new keys past it are dropped. */
  maxKeys: number;
}

export const DEFAULT_COUNTER_OPTIONS: TlsReportCounterOptions = { flushMs: 60_000, maxKeys: 50_000 };

export class TlsReportCounter {
  private pending = new Map<string, SessionCount>();
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly repo: Pick<TlsReportsRepo, 'add'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: TlsReportCounterOptions = DEFAULT_COUNTER_OPTIONS,
  ) {}

  record(attempt: AttemptTls): void {
    try {
      for (const key of sessionKeys(attempt, this.clock.now())) this.add({ ...key, sessions: 1 });
    } catch (err) {
      this.logger.warn({ err }, 'could not count a TLS session for reporting');
    }
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.options.flushMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Adds what was counted since the last flush to the table; one flush at a time. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    this.flushing = this.repo
      .add([...batch.values()])
      .catch((err: unknown) => {
        this.logger.warn(
          { err, keys: batch.size },
          'could not store TLS report counts; kept for the next flush',
        );
        for (const c of batch.values()) this.add(c);
      })
      .finally(() => {
        this.flushing = undefined;
        if (this.dropped > 0) {
          this.logger.warn({ sessions: this.dropped }, 'TLS report counts dropped: too many kept in memory');
          this.dropped = 0;
        }
      });
    await this.flushing;
  }

  private add(c: SessionCount): void {
    const key = keyText(c);
    const held = this.pending.get(key);
    if (held) held.sessions += c.sessions;
    else if (this.pending.size < this.options.maxKeys) this.pending.set(key, { ...c });
    else this.dropped += c.sessions;
  }
}
