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
import {
  DEFAULT_DOMAIN_CHECKER_OPTIONS,
  DomainChecker,
  type DomainCheckerOptions,
} from './domains/domain-checker.js';
import { buildHttpApp } from './http/app.js';
import { createRepos, type Repos } from './wiring/repos.js';
import { createAcceptPath } from './wiring/accept-path.js';
import { createInboundRole } from './wiring/inbound-role.js';
import { createWebhooks } from './wiring/webhooks.js';
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
import { Deliverer, relayTarget } from './delivery/deliver-message.js';
import { DestinationLimits } from './delivery/destination-limits.js';
import { SmtpTransport } from './delivery/smtp-transport.js';
import { createMessageBuilder, type MessageBuilder } from './delivery/message-builder.js';
import { Verp } from './delivery/verp.js';
import { SourceIpPool, utcDay } from './delivery/source-ip-pool.js';
import { noQueueSignal, PostgresQueueSignal, type QueueSignal } from './db/queue-signal.js';
import { Metrics } from './metrics.js';
import { PostgresRateLimitStore } from './db/rate-limit-repo.js';
import { MemoryRateLimitStore } from './http/rate-limit.js';
import { RetentionSweeper } from './retention/retention-sweeper.js';
import { AccountOverviews } from './accounts/account-overview.js';
import { QueuedAccountMail } from './accounts/account-mail.js';
import { DashboardAuth } from './accounts/dashboard-auth.js';
import { Sessions } from './accounts/sessions.js';
import { defaultWebRoot } from './http/web-assets.js';
import { DEFAULT_WORKER_OPTIONS, DeliveryWorker, type WorkerOptions } from './delivery/worker.js';
import type { InboundReceiver } from './inbound/receiver.js';
import { Suppressions } from './suppressions/suppressions.js';
import type { SystemMail } from './messages/system-mail.js';
import {
  DEFAULT_DISPATCHER_OPTIONS,
  WebhookDispatcher,
  type DispatcherOptions,
} from './webhooks/dispatcher.js';
import { webhookDisabledMail } from './webhooks/disabled-mail.js';
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

/** How often a worker shares its source address counts (warm-up caps) with the others. */
const SOURCE_SYNC_MS = 5000;

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
  let worker: DeliveryWorker | undefined;
  let dispatcher: WebhookDispatcher | undefined;
  let transport: SmtpTransport | undefined;
  let builder: MessageBuilder | undefined;
  let sourceSync: NodeJS.Timeout | undefined;
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
  let domainChecker: DomainChecker | undefined;
  const retention = new RetentionSweeper(repos.retention, clock, logger.child({ role: 'retention' }));
  // Shared by API processes on PostgreSQL; SQLite runs one process, whose memory is enough.
  const rateLimitStore =
    db.dialect === 'postgres' ? new PostgresRateLimitStore(db.kysely) : new MemoryRateLimitStore();
  const metrics = new Metrics(
    () => repos.queue.depth(),
    () => clock.now(),
  );
  const signal =
    db.dialect === 'postgres' ? new PostgresQueueSignal(db.kysely, config.databaseUrl) : noQueueSignal;
  let stopListening: (() => Promise<void>) | undefined;
  const accepting = createAcceptPath(config, {
    db,
    repos,
    verifiedDomains,
    metrics,
    queueSignal: signal,
    clock,
    logger,
    wakeWorker: () => worker?.wake(),
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
    retention,
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
    dispatcher: () => dispatcher,
    async startWorker(options = {}, webhookOptions = {}) {
      if (worker) return worker;
      await dkim.ensureServiceKey(config.testDomain);
      transport = new SmtpTransport({ hostname: config.hostname });
      builder = createMessageBuilder(config.buildThreads);
      const sources = new SourceIpPool(
        config.sourceIps.map((address) => ({ address, warmingSince: config.warmingSince[address] })),
        config.warmupSchedule,
        () => clock.now(),
        repos.sourceIpUsage,
      );
      await repos.sourceIpUsage.deleteBefore(utcDay(clock.now() - 86_400_000));
      await sources.sync();
      sourceSync = setInterval(() => {
        sources.sync().catch((err: unknown) => logger.warn({ err }, 'could not sync source address counts'));
      }, SOURCE_SYNC_MS);
      sourceSync.unref();
      const deliverer = new Deliverer(
        {
          hostname: config.hostname,
          testDomain: config.testDomain,
          returnPathLabel: config.returnPathLabel,
          relay: config.relayUrl ? relayTarget(config.relayUrl) : undefined,
          mxPort: config.mxPort,
          allowPrivateNetworks: config.allowPrivateNetworks,
        },
        {
          dns,
          dkim,
          verp,
          transport,
          builder,
          limits: new DestinationLimits({ rules: config.destinationRules }, () => clock.now()),
          sources,
          verifiedDomains: (accountId) => verifiedDomains.verifiedDomains(accountId),
          domainStatus: (accountId, name) => repos.domains.statusOf(accountId, name),
          clock,
        },
      );
      const webhookLogger = logger.child({ role: 'webhooks' });
      dispatcher = new WebhookDispatcher(
        repos.webhookOutbox,
        webhookSender,
        clock,
        webhookLogger,
        async (job, notice) => {
          const mail = webhookDisabledMail(job.webhook.url, notice.message, config.publicUrl);
          await systemMail.send(job.webhook.account_id, mail.subject, mail.html).catch((err: unknown) => {
            webhookLogger.warn(
              { err, webhookId: job.webhook.id },
              'could not queue the webhook-disabled mail',
            );
          });
        },
        { ...DEFAULT_DISPATCHER_OPTIONS, ...webhookOptions },
      );
      // Pushes queued by this process's delivery results go out now, not at the next poll.
      const pushing = dispatcher;
      repos.queue.onWebhookPushesQueued = () => pushing.wake();
      repos.inbound.onWebhookPushesQueued = () => pushing.wake();
      worker = new DeliveryWorker(
        repos.queue,
        deliverer,
        clock,
        logger.child({ role: 'worker' }),
        {
          ...DEFAULT_WORKER_OPTIONS,
          concurrency: config.workerConcurrency,
          leaseMs: config.workerLeaseSeconds * 1000,
          ...options,
        },
        {
          recorded: (m, record, outcome) => {
            if (record.attempt) metrics.attempts.inc({ outcome: record.attempt.outcome });
            if (outcome === 'superseded') return; // its status and events were not stored
            for (const e of record.events) metrics.events.inc({ type: e.type });
            if (record.status === 'delivered')
              metrics.deliveryLatency.observe((record.now - m.created_at) / 1000);
          },
        },
      );
      worker.start();
      retention.start();
      dispatcher.start();
      const woken = worker;
      stopListening = await signal.listen(
        () => woken.wake(),
        (err) => logger.warn({ err }, 'lost the queue notification channel; polling until it is back'),
      );
      return worker;
    },
    startDomainChecker(options = {}) {
      domainChecker ??= new DomainChecker(domains, repos.domains, clock, logger.child({ role: 'domains' }), {
        ...DEFAULT_DOMAIN_CHECKER_OPTIONS,
        ...options,
      });
      domainChecker.start();
      return domainChecker;
    },
    startInbound: (options) => inbound.start(options),
    async close() {
      await inbound.close();
      clearInterval(sourceSync);
      await stopListening?.();
      await retention.stop();
      await domainChecker?.stop();
      await worker?.stop();
      await dispatcher?.stop();
      await transport?.close();
      await builder?.close();
      await accepting.close();
      await db.close();
    },
  };
}
