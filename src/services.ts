// The composition root: builds every service once from the configuration and passes it where needed.
// Roles (serve, api, worker…) start the parts they run from here; nothing else creates singletons.
// What each part needs is wired in wiring/, one module per part; this file is their table of contents.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AcceptWriter } from './accept/writer.js';
import type { Accounts } from './accounts/accounts.js';
import type { ApiKeyAuth } from './accounts/api-key-auth.js';
import type { DashboardAuth } from './accounts/dashboard-auth.js';
import type { Sessions } from './accounts/sessions.js';
import { blocklistPlanNow, currentListings } from './blocklists/targets.js';
import type { BlocklistMonitor, BlocklistMonitorOptions } from './blocklists/monitor.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { deriveKey } from './crypto/derive-key.js';
import { SecretBox } from './crypto/secret-box.js';
import { migrate, openDatabase, type Db, type OpenOptions } from './db/database.js';
import { dialectSeams } from './db/dialect.js';
import type { QueueSignal } from './db/seams.js';
import type { SmtpTransportOptions } from './delivery/smtp-transport.js';
import { Verp } from './delivery/verp.js';
import type { DeliveryWorker, WorkerOptions } from './delivery/worker.js';
import { DkimKeys } from './dkim/dkim-keys.js';
import type { DkimKeyPair } from './dkim/keys.js';
import type { DeferredWork } from './deferred-work.js';
import { DnsResolver } from './dns/resolver.js';
import type { DomainChecker, DomainCheckerOptions } from './domains/domain-checker.js';
import type { Domains } from './domains/domains.js';
import { VerifiedDomains } from './domains/verified-domains.js';
import type { InboundReceiver } from './inbound/receiver.js';
import { createLogger } from './log.js';
import type { AcceptService } from './messages/accept.js';
import type { SystemMail } from './messages/system-mail.js';
import { Metrics } from './metrics.js';
import { ReputationGuard } from './reputation/guard.js';
import { defaultRegistryOptions, ProcessRegistry } from './process-registry.js';
import type { RetentionSweeper } from './retention/retention-sweeper.js';
import { loadSecretKey } from './secret-key.js';
import { Suppressions } from './suppressions/suppressions.js';
import { WakeSignals } from './wake-signals.js';
import type { DispatcherOptions, WebhookDispatcher } from './webhooks/dispatcher.js';
import type { WebhookEndpoints } from './webhooks/webhook-endpoints.js';
import { createAcceptPath } from './wiring/accept-path.js';
import { createAccountServices } from './wiring/accounts.js';
import { createDomains } from './wiring/domains.js';
import { createHttpApps } from './wiring/http-apps.js';
import { createInboundRole } from './wiring/inbound-role.js';
import { createRepos, type Repos } from './wiring/repos.js';
import { windowStart } from './reputation/counts.js';
import { createWebhooks } from './wiring/webhooks.js';
import { createWorkerRole } from './wiring/worker-role.js';

export interface Services {
  config: Config;
  logger: Logger;
  clock: Clock;
  db: Db;
  secretKey: string;
  repos: Repos;
  dns: DnsResolver;
  dkim: DkimKeys;
  verp: Verp;
  accounts: Accounts;
  auth: ApiKeyAuth;
  sessions: Sessions;
  dashboardAuth: DashboardAuth;
  /** What the sign-in pages do after answering (a reset request's mail); tests wait on settled(). */
  deferredWork: DeferredWork;
  verifiedDomains: VerifiedDomains;
  domains: Domains;
  /** The accept writer (accept/writer.ts): every message, the API's and the service's own, goes through it. */
  batcher: AcceptWriter;
  metrics: Metrics;
  /** Tells worker processes that mail was queued (PostgreSQL NOTIFY/LISTEN). */
  queueSignal: QueueSignal;
  /** This process's wake-ups: the named signals its claim loops listen to (wake-signals.ts). */
  signals: WakeSignals;
  /** Deletes logs past their plan's retention; started with the worker. */
  retention: RetentionSweeper;
  accept: AcceptService;
  suppressions: Suppressions;
  webhooks: WebhookEndpoints;
  systemMail: SystemMail;
  /** Judges accounts' bounce and complaint rates and moves their reputation state (reputation/guard.ts). */
  reputation: ReputationGuard;
  /** This process in the registry of live processes; started by the worker and inbound roles. */
  registry: ProcessRegistry;
  /** Builds the HTTP app (API + dashboard); not listening yet. */
  http(): FastifyInstance;
  /** Builds the health listener of the inbound role (/healthz, /readyz, /metrics); not listening yet. */
  healthHttp(): FastifyInstance;
  /**
   * Starts the worker role of this process: the delivery worker (woken at once by mail accepted here)
   * and the webhook dispatcher (woken by events the worker records).
   */
  startWorker(
    options?: Partial<WorkerOptions>,
    webhookOptions?: Partial<DispatcherOptions>,
    transportOptions?: Pick<SmtpTransportOptions, 'ca'>,
  ): Promise<DeliveryWorker>;
  /** The webhook dispatcher once the worker role runs. */
  dispatcher(): WebhookDispatcher | undefined;
  /** Starts the periodic re-check of domains in this process (serve and worker roles). */
  startDomainChecker(options?: Partial<DomainCheckerOptions>): DomainChecker;
  /** Starts the periodic blocklist check in this process (serve and worker roles; one process checks). */
  startBlocklistMonitor(options?: Partial<BlocklistMonitorOptions>): BlocklistMonitor;
  /** Starts the bounce and complaint receiver (SMTP) and its recovery pass; `port` 0 picks one. */
  startInbound(options?: { port?: number }): Promise<InboundReceiver>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  logger?: Logger;
  db?: OpenOptions;
  /** Apply pending migrations on start (the default). */
  migrate?: boolean;
  /**
   * This process only accepts mail (`txmail api`): nothing else writes on its SQLite connection, so the
   * accept thread (TXMAIL_SQLITE_WRITER_THREAD=auto) has the write lock to itself. In a process that also
   * delivers, the event loop's writes would wait for the thread's commits, and SQLite waits for a lock
   * by sleeping, which stalls the event loop (bench/e2e: 589 msg/s and p99 27 ms with the thread, 676
   * msg/s and p99 13 ms without).
   */
  acceptOnly?: boolean;
  /** Makes DKIM key pairs (tests: a pool of pre-made keys). */
  generateDkimKey?: () => Promise<DkimKeyPair>;
}

export async function createServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const db = openDatabase(config.databaseUrl, { poolSize: config.databasePool, ...options.db });
  if (options.migrate !== false) await migrate(db);
  const secretKey = loadSecretKey(config.secretKey, db.sqlitePath);

  // Every wake-up inside this process goes through one object: whoever makes work emits, the loops
  // that take it listen (wake-signals.ts, ARCHITECTURE.md "Claim loops").
  const signals = new WakeSignals();
  const repos = createRepos(db, signals, config.testDomain);
  const metrics = new Metrics(
    () => repos.queue.depth(),
    () => clock.now(),
  );
  metrics.watchReputationStates(() => repos.accountReputation.countByStatus());
  if (config.blocklistZones.length > 0) {
    metrics.observeBlocklists(async () =>
      currentListings(await repos.blocklists.all(), await blocklistPlanNow(config, repos.domains)),
    );
  }
  metrics.watchDestinationBlocks(() => repos.destinationBlocks.active(clock.now()));
  metrics.addReputationGauges(() =>
    repos.reputation.windows(windowStart(clock.now(), config.reputation.windowDays)),
  );
  metrics.addDomainReputationGauges(() =>
    repos.reputation.domainWindows(windowStart(clock.now(), config.reputation.windowDays)),
  );
  const queueSignal = dialectSeams(db).queueSignal(config.databaseUrl);
  const dns = new DnsResolver(config.dnsServers);
  const dkim = new DkimKeys(
    repos.dkimKeys,
    new SecretBox(deriveKey(secretKey, 'dkim-key-encryption')),
    clock,
    options.generateDkimKey,
  );
  const verp = new Verp(deriveKey(secretKey, 'verp'));
  const verifiedDomains = new VerifiedDomains(repos.domains);

  const accepting = createAcceptPath(config, {
    db,
    repos,
    verifiedDomains,
    metrics,
    queueSignal,
    clock,
    logger,
    signals,
    acceptOnly: options.acceptOnly === true,
  });
  const { writer: batcher, accept, systemMail } = accepting;
  const { auth, accounts, sessions, dashboardAuth, accountMail, deferredWork } = createAccountServices(
    config,
    {
      repos,
      secretKey,
      systemMail,
      clock,
      logger,
    },
  );
  const domains = createDomains(config, { repos, dkim, dns, verifiedDomains, auth, clock });
  const suppressions = new Suppressions(repos.suppressions, clock);
  const { endpoints: webhooks, sender: webhookSender } = createWebhooks(config, {
    repos,
    secretKey,
    dns,
    metrics,
    clock,
    logger,
  });

  const reputation = new ReputationGuard({
    counts: repos.reputation,
    states: repos.accountReputation,
    thresholds: config.reputation,
    mail: (accountId, subject, html) => systemMail.send(accountId, subject, html),
    publicUrl: config.publicUrl,
    clock,
    logger: logger.child({ role: 'reputation' }),
    changed: () => auth.invalidate(),
  });

  const httpApps = createHttpApps(config, {
    db,
    repos,
    logger,
    clock,
    metrics,
    auth,
    accept,
    domains,
    suppressions,
    webhooks,
    accounts,
    sessions,
    dashboardAuth,
    accountMail,
  });
  // Liveness is measured in real time whatever clock the services run on: a test's manual clock moves
  // due times, and must not make this process look dead to itself or to others.
  const registry = new ProcessRegistry(
    repos.processes,
    systemClock,
    logger.child({ role: 'registry' }),
    defaultRegistryOptions(config.processHeartbeatSeconds),
    signals,
  );
  const workerRole = createWorkerRole(config, {
    registry,
    repos,
    metrics,
    queueSignal,
    signals,
    dns,
    dkim,
    verp,
    verifiedDomains,
    domains,
    webhookSender,
    systemMail,
    reputation,
    clock,
    logger,
  });
  const inboundRole = createInboundRole(config, {
    repos,
    verp,
    metrics,
    clock,
    logger,
    registry,
    signals,
    reputation,
  });

  return {
    config,
    logger,
    clock,
    db,
    secretKey,
    repos,
    metrics,
    queueSignal,
    signals,
    retention: workerRole.retention,
    dns,
    dkim,
    verp,
    accounts,
    auth,
    sessions,
    dashboardAuth,
    deferredWork,
    verifiedDomains,
    domains,
    batcher,
    accept,
    suppressions,
    webhooks,
    systemMail,
    reputation,
    registry,
    http: () => httpApps.http(),
    healthHttp: () => httpApps.healthHttp(),
    dispatcher: () => workerRole.dispatcher(),
    startWorker: (options, webhookOptions, transportOptions) =>
      workerRole.start(options, webhookOptions, transportOptions),
    startDomainChecker: (options) => workerRole.startDomainChecker(options),
    startInbound: (options) => inboundRole.start(options),
    startBlocklistMonitor: (options) => workerRole.startBlocklistMonitor(options),
    async close() {
      // Intake first, then the work in flight; the worker role may still queue mail (a webhook-disabled
      // notice) through the accept writer, which commits it as it closes, before the database.
      await inboundRole.close();
      await workerRole.close();
      // Its last judgements may queue an email through the accept writer, closed below.
      await reputation.stop();
      // Leaves the registry, giving back whatever the roles still held (inbound reports mid-parse).
      await registry.stop();
      // A reset request answered already may still be queueing its mail through the accept writer.
      await deferredWork.settled();
      await accepting.close();
      await db.close();
    },
  };
}
