// The accept path: the writer that commits accepted mail, the group commit in front of it, the accept
// service, the service's own mail (queued through the same batcher), and what follows each commit.
import type { Logger } from 'pino';
import { quotaWarningMail } from '../accounts/quota-warning.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { AcceptItem, AcceptOutcome, AcceptWriter } from '../db/accept-repo.js';
import { SqliteAcceptWriter } from '../db/accept-repo-sqlite.js';
import { ThreadedSqliteAcceptWriter } from '../db/accept-writer-thread.js';
import type { Db } from '../db/database.js';
import type { QueueSignal } from '../db/queue-signal.js';
import type { VerifiedDomains } from '../domains/verified-domains.js';
import { GroupCommit } from '../group-commit.js';
import { AcceptService } from '../messages/accept.js';
import { SystemMail } from '../messages/system-mail.js';
import type { Metrics } from '../metrics.js';
import type { WakeSignals } from '../wake-signals.js';
import type { Repos } from './repos.js';

export interface AcceptPath {
  batcher: GroupCommit<AcceptItem, AcceptOutcome>;
  accept: AcceptService;
  systemMail: SystemMail;
  /** Commits what the batcher still holds, then closes the writer; before the database closes. */
  close(): Promise<void>;
}

export interface AcceptPathDeps {
  db: Db;
  repos: Repos;
  verifiedDomains: VerifiedDomains;
  metrics: Metrics;
  queueSignal: QueueSignal;
  clock: Clock;
  logger: Logger;
  /** Wake-ups of this process: mail queued here wakes its delivery worker, if it runs one. */
  signals: WakeSignals;
  /** ServiceOptions.acceptOnly: whether the SQLite accept thread has the write lock to itself. */
  acceptOnly: boolean;
}

export function createAcceptPath(config: Config, deps: AcceptPathDeps): AcceptPath {
  const { repos, metrics, clock, logger } = deps;
  const writer = acceptWriter(config, deps);
  const batcher = new GroupCommit<AcceptItem, AcceptOutcome>((items) => writer.persist(items), {
    // Two batches out at once keep the writer busy: the SQLite thread takes requests as they come while
    // it has fewer than two, and what arrives meanwhile goes over as one batch; on PostgreSQL the second
    // transaction does its work while the first commits. More only makes smaller batches, which on
    // PostgreSQL queue on the account's usage row lock (bench/accept: 2 did as well as or better than 1,
    // 3 and 4, and clearly better than 8 on PostgreSQL and 64 on SQLite). On the event loop a write
    // blocks anyway.
    ...(writer instanceof ThreadedSqliteAcceptWriter
      ? { immediate: true, maxInFlight: 2 }
      : { maxInFlight: deps.db.dialect === 'postgres' ? 2 : 1 }),
    onCommitted: (items, outcomes) => {
      let queued = false;
      items.forEach((item, i) => {
        if (outcomes[i]!.kind !== 'accepted') return;
        const outcome = outcomes[i]!;
        const test = item.message.status === 'test';
        metrics.accepted.inc({ route: test ? 'test' : 'send' });
        if (outcome.kind === 'accepted' && outcome.warned) {
          const mail = quotaWarningMail(outcome.warned, config.publicUrl);
          // After the commit that stored the notice: a crash in between loses the email, not the notice.
          void systemMail
            .send(item.message.account_id, mail.subject, mail.html)
            .catch((err: unknown) => logger.warn({ err }, 'could not queue the quota warning email'));
        }
        queued ||= !test;
      });
      if (!queued) return;
      deps.signals.messagesQueued.emit();
      deps.queueSignal.queued();
    },
  });
  const accept = new AcceptService(
    batcher,
    repos.accept,
    {
      verifiedDomains: (accountId) => deps.verifiedDomains.verifiedDomains(accountId),
      suppression: (accountId, address) => repos.suppressions.find(accountId, address),
    },
    clock,
  );
  const systemMail = new SystemMail(
    { testDomain: config.testDomain, senderName: 'txmail' },
    { accounts: repos.accounts, batcher, clock },
  );
  return {
    batcher,
    accept,
    systemMail,
    async close() {
      await batcher.drain();
      await writer.close();
    },
  };
}

function acceptWriter(config: Config, { db, repos, acceptOnly }: AcceptPathDeps): AcceptWriter {
  if (!db.sqlite) return repos.accept;
  const threaded = config.sqliteWriterThread === 'auto' ? acceptOnly : config.sqliteWriterThread;
  // The thread opens the file with a connection of its own: an in-memory database would be another one.
  return db.sqlitePath !== ':memory:' && threaded
    ? new ThreadedSqliteAcceptWriter(db.sqlitePath!)
    : new SqliteAcceptWriter(db.kysely, db.sqlite);
}
