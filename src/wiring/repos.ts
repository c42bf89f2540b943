// The repositories: every SQL question the services ask, one object per area, over one database.
import { WakeSignals } from '../wake-signals.js';
import { AcceptReadsRepo } from '../db/accept-reads-repo.js';
import { AccountsRepo } from '../db/accounts-repo.js';
import { AttemptCountsRepo } from '../db/attempt-counts-repo.js';
import { BlocklistsRepo } from '../db/blocklists-repo.js';
import type { Db } from '../db/database.js';
import { DestinationBlocksRepo } from '../db/destination-blocks-repo.js';
import { DkimKeysRepo } from '../db/dkim-keys-repo.js';
import { DomainsRepo } from '../db/domains-repo.js';
import { InboundRepo } from '../db/inbound-repo.js';
import { LoginDevicesRepo } from '../db/login-devices-repo.js';
import { MessagesRepo } from '../db/messages-repo.js';
import { MtaStsRepo } from '../db/mta-sts-repo.js';
import { NoticesRepo } from '../db/notices-repo.js';
import { ProcessesRepo } from '../db/processes-repo.js';
import { QueueRepo } from '../db/queue-repo.js';
import { dialectSeams } from '../db/dialect.js';
import { ReputationRepo } from '../db/reputation-repo.js';
import { AccountReputationRepo } from '../db/account-reputation-repo.js';
import { RetentionRepo } from '../db/retention-repo.js';
import { SessionsRepo } from '../db/sessions-repo.js';
import { MembersRepo } from '../db/members-repo.js';
import { AuditRepo } from '../db/audit-repo.js';
import { SignupsRepo } from '../db/signups-repo.js';
import { SourceIpUsageRepo } from '../db/source-ip-usage-repo.js';
import { INBOUND_RAW_PARTS, SqlitePartsStore } from '../db/sqlite/parts-store.js';
import { SuppressionsRepo } from '../db/suppressions-repo.js';
import { TlsReportsRepo } from '../db/tls-reports-repo.js';
import { WebhookOutboxRepo } from '../db/webhook-outbox-repo.js';
import { WebhooksRepo } from '../db/webhooks-repo.js';

export interface Repos {
  accounts: AccountsRepo;
  domains: DomainsRepo;
  messages: MessagesRepo;
  acceptReads: AcceptReadsRepo;
  queue: QueueRepo;
  dkimKeys: DkimKeysRepo;
  sourceIpUsage: SourceIpUsageRepo;
  retention: RetentionRepo;
  suppressions: SuppressionsRepo;
  inbound: InboundRepo;
  webhooks: WebhooksRepo;
  webhookOutbox: WebhookOutboxRepo;
  notices: NoticesRepo;
  sessions: SessionsRepo;
  members: MembersRepo;
  audit: AuditRepo;
  attemptCounts: AttemptCountsRepo;
  signups: SignupsRepo;
  loginDevices: LoginDevicesRepo;
  processes: ProcessesRepo;
  reputation: ReputationRepo;
  /** The accounts' reputation states (healthy, warning, paused) and their moves. */
  accountReputation: AccountReputationRepo;
  blocklists: BlocklistsRepo;
  destinationBlocks: DestinationBlocksRepo;
  /** Recipient domains' MTA-STS policies as last fetched. */
  mtaSts: MtaStsRepo;
  /** TLS-RPT session counts, reports sent, and the report schedule. */
  tlsReports: TlsReportsRepo;
}

/** `testDomain`: the service's own sending domain (TXMAIL_TEST_DOMAIN), kept out of reputation windows. */
export function createRepos(db: Db, signals: WakeSignals = new WakeSignals(), testDomain?: string): Repos {
  return {
    accounts: new AccountsRepo(db.kysely, db.dialect),
    domains: new DomainsRepo(db.kysely, db.dialect),
    messages: new MessagesRepo(db.kysely, db.dialect, db.reads),
    acceptReads: new AcceptReadsRepo(db.kysely),
    queue: new QueueRepo(db.kysely, dialectSeams(db).queue(), signals.webhookPushesQueued),
    dkimKeys: new DkimKeysRepo(db.kysely),
    sourceIpUsage: new SourceIpUsageRepo(db.kysely),
    retention: new RetentionRepo(db.kysely, () => db.erased()),
    suppressions: new SuppressionsRepo(db.kysely, db.dialect),
    // On SQLite the receiver stores on the event loop's connection: large raw texts go in parts.
    inbound: new InboundRepo(
      db.kysely,
      db.dialect,
      signals.webhookPushesQueued,
      db.sqlite && new SqlitePartsStore(db.kysely, db.sqlite, db.sqlitePath, INBOUND_RAW_PARTS),
    ),
    webhooks: new WebhooksRepo(db.kysely, db.dialect),
    webhookOutbox: new WebhookOutboxRepo(db.kysely, db.dialect),
    notices: new NoticesRepo(db.kysely),
    sessions: new SessionsRepo(db.kysely),
    members: new MembersRepo(db.kysely, db.dialect),
    audit: new AuditRepo(db.kysely),
    attemptCounts: new AttemptCountsRepo(db.kysely, db.dialect),
    signups: new SignupsRepo(db.kysely, db.dialect),
    loginDevices: new LoginDevicesRepo(db.kysely),
    processes: new ProcessesRepo(db.kysely),
    reputation: new ReputationRepo(db.kysely, testDomain),
    accountReputation: new AccountReputationRepo(db.kysely, signals.webhookPushesQueued),
    blocklists: new BlocklistsRepo(db.kysely),
    destinationBlocks: new DestinationBlocksRepo(db.kysely),
    mtaSts: new MtaStsRepo(db.kysely),
    tlsReports: new TlsReportsRepo(db.kysely),
  };
}
