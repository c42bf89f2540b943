// The composition root: builds every service once from the configuration and passes it where needed.
// Roles (serve, api, worker…) start the parts they run from here; nothing else creates singletons.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ApiKeyAuth } from './accounts/api-key-auth.js';
import { Accounts } from './accounts/accounts.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { AcceptItem, AcceptOutcome } from './db/accept-repo.js';
import { isReachable, migrate, openDatabase, type Db, type OpenOptions } from './db/database.js';
import { VerifiedDomains } from './domains/verified-domains.js';
import { Domains } from './domains/domains.js';
import type { DomainChecker, DomainCheckerOptions } from './domains/domain-checker.js';
import { buildHttpApp } from './http/app.js';
import { createRepos, type Repos } from './wiring/repos.js';
import { createAcceptPath } from './wiring/accept-path.js';
import { createInboundRole } from './wiring/inbound-role.js';
import { createWebhooks } from './wiring/webhooks.js';
import { createWorkerRole } from './wiring/worker-role.js';
import type { AcceptService } from './messages/accept.js';
import { buildHealthApp } from './http/health-app.js';
import { createLogger } from './log.js';
import type { GroupCommit } from './group-commit.js';
import { loadSecretKey } from './secret-key.js';
import { deriveKey } from './crypto/derive-key.js';
import { SecretBox } from './crypto/secret-box.js';
import { DkimKeys } from './dkim/dkim-keys.js';
import type { DkimKeyPair } from './dkim/keys.js';
import { DnsResolver } from './dns/resolver.js';
import { Verp } from './delivery/verp.js';
import { noQueueSignal, PostgresQueueSignal, type QueueSignal } from './db/queue-signal.js';
import { Metrics } from './metrics.js';
import { PostgresRateLimitStore } from './db/rate-limit-repo.js';
import { MemoryRateLimitStore } from './http/rate-limit.js';
import type { RetentionSweeper } from './retention/retention-sweeper.js';
import { AccountOverviews } from './accounts/account-overview.js';
import { QueuedAccountMail } from './accounts/account-mail.js';
import { DashboardAuth } from './accounts/dashboard-auth.js';
import { Sessions } from './accounts/sessions.js';
import { defaultWebRoot } from './http/web-assets.js';
import type { DeliveryWorker, WorkerOptions } from './delivery/worker.js';
import type { InboundReceiver } from './inbound/receiver.js';
import { Suppressions } from './suppressions/suppressions.js';
import type { SystemMail } from './messages/system-mail.js';
import type { DispatcherOptions, WebhookDispatcher } from './webhooks/dispatcher.js';
import type { WebhookEndpoints } from './webhooks/webhook-endpoints.js';

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
  verifiedDomains: VerifiedDomains;
  domains: Domains;
  batcher: GroupCommit<AcceptItem, AcceptOutcome>;
  metrics: Metrics;
  /** Tells worker processes that mail was queued (PostgreSQL NOTIFY/LISTEN). */
  queueSignal: QueueSignal;
  /** Deletes logs past their plan's retention; started with the worker. */
  retention: RetentionSweeper;
  accept: AcceptService;
  suppressions: Suppressions;
  webhooks: WebhookEndpoints;
  systemMail: SystemMail;
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
  ): Promise<DeliveryWorker>;
  /** The webhook dispatcher once the worker role runs. */
  dispatcher(): WebhookDispatcher | undefined;
  /** Starts the periodic re-check of domains in this process (serve and worker roles). */
  startDomainChecker(options?: Partial<DomainCheckerOptions>): DomainChecker;
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

  const repos = createRepos(db);
  const dns = new DnsResolver(config.dnsServers);
  const dkim = new DkimKeys(
    repos.dkimKeys,
    new SecretBox(deriveKey(secretKey, 'dkim-key-encryption')),
    clock,
    options.generateDkimKey,
  );
  const verp = new Verp(deriveKey(secretKey, 'verp'));
  const auth = new ApiKeyAuth(repos.accounts, clock, (err) =>
    logger.warn({ err }, 'could not record key use'),
  );
  const verifiedDomains = new VerifiedDomains(repos.domains);
  const domains = new Domains(
    repos.domains,
    repos.dkimKeys,
    dkim,
    dns,
    clock,
    {
      returnPathLabel: config.returnPathLabel,
      inboundMx: config.inboundMx,
      spfDomain: config.spfDomain,
      reserved: [config.testDomain, config.hostname, config.spfDomain, config.inboundMx],
      // Read only through config.sourceIps: the variable's syntax may grow (e.g. warm-up dates).
      sourceIps: config.sourceIps,
      hostname: config.hostname,
    },
    (accountId, accountStateChanged) => {
      verifiedDomains.invalidate(accountId);
      if (accountStateChanged) auth.invalidate();
    },
  );
  // Shared by API processes on PostgreSQL; SQLite runs one process, whose memory is enough.
  const rateLimitStore =
    db.dialect === 'postgres' ? new PostgresRateLimitStore(db.kysely) : new MemoryRateLimitStore();
  const metrics = new Metrics(
    () => repos.queue.depth(),
    () => clock.now(),
  );
  const signal =
    db.dialect === 'postgres' ? new PostgresQueueSignal(db.kysely, config.databaseUrl) : noQueueSignal;
  const accepting = createAcceptPath(config, {
    db,
    repos,
    verifiedDomains,
    metrics,
    queueSignal: signal,
    clock,
    logger,
    wakeWorker: () => workerRole.wake(),
    acceptOnly: options.acceptOnly === true,
  });
  const { batcher, accept, systemMail } = accepting;
  const suppressions = new Suppressions(repos.suppressions, clock);
  const { endpoints: webhooks, sender: webhookSender } = createWebhooks(config, {
    repos,
    secretKey,
    dns,
    metrics,
    clock,
  });
  const accounts = new Accounts(repos.accounts, clock);
  const sessions = new Sessions(repos.sessions, repos.accounts, deriveKey(secretKey, 'session'), clock);
  const accountMail = new QueuedAccountMail(systemMail);
  const dashboardAuth = new DashboardAuth(
    { signup: config.signup, publicUrl: config.publicUrl },
    {
      accounts,
      accountsRepo: repos.accounts,
      sessionsRepo: repos.sessions,
      sessions,
      mail: accountMail,
      attempts: repos.attemptCounts,
      clock,
    },
  );
  const workerRole = createWorkerRole(config, {
    repos,
    metrics,
    queueSignal: signal,
    dns,
    dkim,
    verp,
    verifiedDomains,
    domains,
    webhookSender,
    systemMail,
    clock,
    logger,
  });
  const inbound = createInboundRole(config, { repos, verp, metrics, clock, logger });

  return {
    config,
    logger,
    clock,
    db,
    secretKey,
    repos,
    metrics,
    queueSignal: signal,
    retention: workerRole.retention,
    dns,
    dkim,
    verp,
    accounts,
    auth,
    sessions,
    dashboardAuth,
    verifiedDomains,
    domains,
    batcher,
    accept,
    suppressions,
    webhooks,
    systemMail,
    http: () =>
      buildHttpApp({
        logger,
        clock,
        auth,
        accept,
        domains,
        messages: repos.messages,
        rateLimits: { perKey: config.rateLimit, perAccount: config.accountRateLimits },
        rateLimitStore,
        suppressions,
        webhooks,
        notices: repos.notices,
        databaseReachable: () => isReachable(db),
        metrics,
        accountOverviews: new AccountOverviews(
          repos.accounts,
          {
            domains: (id) => repos.domains.count(id),
            webhooks: async (id) => (await repos.webhooks.list(id)).length,
          },
          clock,
        ),
        publicUrl: config.publicUrl,
        accounts,
        accountsRepo: repos.accounts,
        sessions,
        dashboardAuth,
        accountMail,
        webRoot: defaultWebRoot(),
        trustProxy: config.trustProxy,
      }),
    healthHttp: () => buildHealthApp({ logger, databaseReachable: () => isReachable(db), metrics }),
    startWorker: (options, webhookOptions) => workerRole.start(options, webhookOptions),
    dispatcher: () => workerRole.dispatcher(),
    startDomainChecker: (options) => workerRole.startDomainChecker(options),
    startInbound: (options) => inbound.start(options),
    async close() {
      await inbound.close();
      await workerRole.close();
      await accepting.close();
      await db.close();
    },
  };
}
