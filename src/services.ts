// The composition root: builds every service once from the configuration and passes it where needed.
// Roles (serve, api, worker…) start the parts they run from here; nothing else creates singletons.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { ApiKeyAuth } from './accounts/api-key-auth.js';
import { Accounts } from './accounts/accounts.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { AcceptRepo, type AcceptItem, type AcceptOutcome } from './db/accept-repo.js';
import { SqliteAcceptWriter } from './db/accept-repo-sqlite.js';
import { AccountsRepo } from './db/accounts-repo.js';
import { isReachable, migrate, openDatabase, type Db, type OpenOptions } from './db/database.js';
import { DomainsRepo } from './db/domains-repo.js';
import { MessagesRepo } from './db/messages-repo.js';
import { VerifiedDomains } from './domains/verified-domains.js';
import { buildHttpApp } from './http/app.js';
import { createLogger } from './log.js';
import { GroupCommit } from './group-commit.js';
import { AcceptService } from './messages/accept.js';
import { loadSecretKey } from './secret-key.js';
import { deriveKey } from './crypto/derive-key.js';
import { SecretBox } from './crypto/secret-box.js';
import { DkimKeysRepo } from './db/dkim-keys-repo.js';
import { QueueRepo } from './db/queue-repo.js';
import { SqliteQueueRepo } from './db/queue-repo-sqlite.js';
import { DkimKeys } from './dkim/dkim-keys.js';
import { DnsResolver } from './dns/resolver.js';
import { Deliverer, relayTarget } from './delivery/deliver-message.js';
import { DestinationLimits } from './delivery/destination-limits.js';
import { SmtpTransport } from './delivery/smtp-transport.js';
import { createMessageBuilder, type MessageBuilder } from './delivery/message-builder.js';
import { Verp } from './delivery/verp.js';
import { SourceIpPool, utcDay } from './delivery/source-ip-pool.js';
import { SourceIpUsageRepo } from './db/source-ip-usage-repo.js';
import { noQueueSignal, PostgresQueueSignal } from './db/queue-signal.js';
import { DEFAULT_WORKER_OPTIONS, DeliveryWorker, type WorkerOptions } from './delivery/worker.js';
import { NoticesRepo } from './db/notices-repo.js';
import { WebhookOutboxRepo } from './db/webhook-outbox-repo.js';
import { WebhooksRepo } from './db/webhooks-repo.js';
import { SystemMail } from './messages/system-mail.js';
import {
  DEFAULT_DISPATCHER_OPTIONS,
  WebhookDispatcher,
  type DispatcherOptions,
} from './webhooks/dispatcher.js';
import { webhookDisabledMail } from './webhooks/disabled-mail.js';
import { WebhookEndpoints } from './webhooks/webhook-endpoints.js';
import { WebhookSender } from './webhooks/webhook-sender.js';

export interface Services {
  config: Config;
  logger: Logger;
  clock: Clock;
  db: Db;
  secretKey: string;
  repos: {
    accounts: AccountsRepo;
    domains: DomainsRepo;
    messages: MessagesRepo;
    accept: AcceptRepo;
    queue: QueueRepo;
    dkimKeys: DkimKeysRepo;
    sourceIpUsage: SourceIpUsageRepo;
    webhooks: WebhooksRepo;
    webhookOutbox: WebhookOutboxRepo;
    notices: NoticesRepo;
  };
  dns: DnsResolver;
  dkim: DkimKeys;
  verp: Verp;
  accounts: Accounts;
  auth: ApiKeyAuth;
  verifiedDomains: VerifiedDomains;
  batcher: GroupCommit<AcceptItem, AcceptOutcome>;
  accept: AcceptService;
  webhooks: WebhookEndpoints;
  systemMail: SystemMail;
  /** Builds the HTTP app (API + dashboard); not listening yet. */
  http(): FastifyInstance;
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
  close(): Promise<void>;
}

/** A webhook endpoint has this long to answer (DESIGN.md §8). */
const WEBHOOK_TIMEOUT_MS = 15_000;

/** How often a worker shares its source address counts (warm-up caps) with the others. */
const SOURCE_SYNC_MS = 5000;

export interface ServiceOptions {
  clock?: Clock;
  logger?: Logger;
  db?: OpenOptions;
  /** Apply pending migrations on start (the default). */
  migrate?: boolean;
}

export async function createServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const db = openDatabase(config.databaseUrl, options.db);
  if (options.migrate !== false) await migrate(db);
  const secretKey = loadSecretKey(config.secretKey, db.sqlitePath);

  const repos = {
    accounts: new AccountsRepo(db.kysely),
    domains: new DomainsRepo(db.kysely),
    messages: new MessagesRepo(db.kysely),
    accept: new AcceptRepo(db.kysely),
    queue: db.sqlite ? new SqliteQueueRepo(db.kysely, db.sqlite) : new QueueRepo(db.kysely, db.dialect),
    dkimKeys: new DkimKeysRepo(db.kysely),
    sourceIpUsage: new SourceIpUsageRepo(db.kysely),
    webhooks: new WebhooksRepo(db.kysely, db.dialect),
    webhookOutbox: new WebhookOutboxRepo(db.kysely, db.dialect),
    notices: new NoticesRepo(db.kysely),
  };
  const dns = new DnsResolver(config.dnsServers);
  const dkim = new DkimKeys(
    repos.dkimKeys,
    new SecretBox(deriveKey(secretKey, 'dkim-key-encryption')),
    clock,
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
  const writer = db.sqlite ? new SqliteAcceptWriter(db.kysely, db.sqlite) : repos.accept;
  const signal =
    db.dialect === 'postgres' ? new PostgresQueueSignal(db.kysely, config.databaseUrl) : noQueueSignal;
  let stopListening: (() => Promise<void>) | undefined;
  const batcher = new GroupCommit<AcceptItem, AcceptOutcome>((items) => writer.persist(items), {
    onCommitted: (_items, outcomes) => {
      if (!outcomes.some((o) => o.kind === 'accepted')) return;
      worker?.wake();
      signal.queued();
    },
  });
  const accept = new AcceptService(batcher, repos.accept, verifiedDomains, clock);
  const webhookSender = new WebhookSender(
    { allowPrivateNetworks: config.allowPrivateNetworks, timeoutMs: WEBHOOK_TIMEOUT_MS },
    { dns, secrets: new SecretBox(deriveKey(secretKey, 'webhook-secret-encryption')), clock },
  );
  const webhooks = new WebhookEndpoints(
    { allowPrivateNetworks: config.allowPrivateNetworks },
    {
      repo: repos.webhooks,
      outbox: repos.webhookOutbox,
      secrets: new SecretBox(deriveKey(secretKey, 'webhook-secret-encryption')),
      sender: webhookSender,
      dns,
      clock,
    },
  );
  const systemMail = new SystemMail(
    { testDomain: config.testDomain, senderName: 'txmail' },
    { accounts: repos.accounts, batcher, clock },
  );

  return {
    config,
    logger,
    clock,
    db,
    secretKey,
    repos,
    dns,
    dkim,
    verp,
    accounts: new Accounts(repos.accounts, clock),
    auth,
    verifiedDomains,
    batcher,
    accept,
    webhooks,
    systemMail,
    http: () =>
      buildHttpApp({
        logger,
        clock,
        auth,
        accept,
        messages: repos.messages,
        webhooks,
        notices: repos.notices,
        rateLimit: config.rateLimit,
        databaseReachable: () => isReachable(db),
      }),
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
      worker = new DeliveryWorker(repos.queue, deliverer, clock, logger.child({ role: 'worker' }), {
        ...DEFAULT_WORKER_OPTIONS,
        concurrency: config.workerConcurrency,
        leaseMs: config.workerLeaseSeconds * 1000,
        ...options,
      });
      worker.start();
      dispatcher.start();
      const woken = worker;
      stopListening = await signal.listen(
        () => woken.wake(),
        (err) => logger.warn({ err }, 'lost the queue notification channel; polling until it is back'),
      );
      return worker;
    },
    async close() {
      clearInterval(sourceSync);
      await stopListening?.();
      await worker?.stop();
      await dispatcher?.stop();
      await transport?.close();
      await builder?.close();
      await batcher.drain();
      await db.close();
    },
  };
}
