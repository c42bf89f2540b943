// The accept path: the writer that commits accepted mail (accept/writer.ts: one per database, each with
// its batching), the accept service, the service's own mail (queued through the same writer), and what
// follows each commit.
import type { Logger } from 'pino';
import { createAcceptWriter, type AcceptWriter } from '../accept/writer.js';
import { quotaWarningMail } from '../accounts/quota-warning.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { QueueSignal } from '../db/seams.js';
import type { VerifiedDomains } from '../domains/verified-domains.js';
import { AcceptService } from '../messages/accept.js';
import type { SealedHtml } from '../messages/sealed-html.js';
import { SystemMail } from '../messages/system-mail.js';
import type { Metrics } from '../metrics.js';
import type { WakeSignals } from '../wake-signals.js';
import type { Repos } from './repos.js';
import { simulatorTest } from '../simulator/simulator-addresses.js';

export interface AcceptPath {
  writer: AcceptWriter;
  accept: AcceptService;
  systemMail: SystemMail;
  /** Commits what the writer still holds, then closes it; before the database closes. */
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
  /** CoreOptions.acceptOnly (roles/core.ts): whether the SQLite accept thread has the write lock to itself. */
  acceptOnly: boolean;
  /** Seals the HTML of the service's mail that carries a sign-in link. */
  sealedHtml: SealedHtml;
}

export function createAcceptPath(config: Config, deps: AcceptPathDeps): AcceptPath {
  const { repos, metrics, clock, logger } = deps;
  const threaded = config.sqliteWriterThread === 'auto' ? deps.acceptOnly : config.sqliteWriterThread;
  const writer = createAcceptWriter(deps.db, {
    threaded,
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
    writer,
    repos.acceptReads,
    {
      verifiedDomains: (accountId) => deps.verifiedDomains.verifiedDomains(accountId),
      expireAfter: (accountId, name) => deps.verifiedDomains.expireAfter(accountId, name),
      suppression: (accountId, address) => repos.suppressions.find(accountId, address),
    },
    clock,
    simulatorTest(config.testDomain),
  );
  const systemMail = new SystemMail(
    { testDomain: config.testDomain, senderName: 'txmail' },
    { accounts: repos.accounts, writer, clock, sealedHtml: deps.sealedHtml },
  );
  return {
    writer,
    accept,
    systemMail,
    close: () => writer.close(),
  };
}
