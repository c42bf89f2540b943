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
import { Domains } from './domains/domains.js';
import {
  DEFAULT_DOMAIN_CHECKER_OPTIONS,
  DomainChecker,
  type DomainCheckerOptions,
} from './domains/domain-checker.js';
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
import type { DkimKeyPair } from './dkim/keys.js';
import { DnsResolver } from './dns/resolver.js';
import { Deliverer, relayTarget } from './delivery/deliver-message.js';
import { DestinationLimits } from './delivery/destination-limits.js';
import { SmtpTransport } from './delivery/smtp-transport.js';
import { createMessageBuilder, type MessageBuilder } from './delivery/message-builder.js';
import { Verp } from './delivery/verp.js';
import { DEFAULT_WORKER_OPTIONS, DeliveryWorker, type WorkerOptions } from './delivery/worker.js';

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
  };
  dns: DnsResolver;
  dkim: DkimKeys;
  verp: Verp;
  accounts: Accounts;
  auth: ApiKeyAuth;
  verifiedDomains: VerifiedDomains;
  domains: Domains;
  batcher: GroupCommit<AcceptItem, AcceptOutcome>;
  accept: AcceptService;
  /** Builds the HTTP app (API + dashboard); not listening yet. */
  http(): FastifyInstance;
  /** Starts the delivery worker of this process (woken at once by mail accepted here). */
  startWorker(options?: Partial<WorkerOptions>): Promise<DeliveryWorker>;
  /** Starts the periodic re-check of domains in this process (serve and worker roles). */
  startDomainChecker(options?: Partial<DomainCheckerOptions>): DomainChecker;
  close(): Promise<void>;
}

export interface ServiceOptions {
  clock?: Clock;
  logger?: Logger;
  db?: OpenOptions;
  /** Apply pending migrations on start (the default). */
  migrate?: boolean;
  /** Makes DKIM key pairs (tests: a pool of pre-made keys). */
  generateDkimKey?: () => Promise<DkimKeyPair>;
}

export async function createServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const db = openDatabase(config.databaseUrl, options.db);
  if (options.migrate !== false) await migrate(db);
  const secretKey = loadSecretKey(config.secretKey, db.sqlitePath);

  const repos = {
    accounts: new AccountsRepo(db.kysely),
    domains: new DomainsRepo(db.kysely, db.dialect),
    messages: new MessagesRepo(db.kysely),
    accept: new AcceptRepo(db.kysely),
    queue: db.sqlite ? new SqliteQueueRepo(db.kysely, db.sqlite) : new QueueRepo(db.kysely, db.dialect),
    dkimKeys: new DkimKeysRepo(db.kysely),
  };
  const dns = new DnsResolver(config.dnsServers);
  const dkim = new DkimKeys(
    repos.dkimKeys,
    new SecretBox(deriveKey(secretKey, 'dkim-key-encryption')),
    clock,
    options.generateDkimKey,
  );
  const verp = new Verp(deriveKey(secretKey, 'verp'));
  let worker: DeliveryWorker | undefined;
  let transport: SmtpTransport | undefined;
  let builder: MessageBuilder | undefined;
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
  const writer = db.sqlite ? new SqliteAcceptWriter(db.kysely, db.sqlite) : repos.accept;
  const batcher = new GroupCommit<AcceptItem, AcceptOutcome>((items) => writer.persist(items), {
    onCommitted: (_items, outcomes) => {
      if (outcomes.some((o) => o.kind === 'accepted')) worker?.wake();
    },
  });
  const accept = new AcceptService(batcher, repos.accept, verifiedDomains, clock);

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
    domains,
    batcher,
    accept,
    http: () =>
      buildHttpApp({
        logger,
        clock,
        auth,
        accept,
        domains,
        messages: repos.messages,
        rateLimit: config.rateLimit,
        databaseReachable: () => isReachable(db),
      }),
    async startWorker(options = {}) {
      if (worker) return worker;
      await dkim.ensureServiceKey(config.testDomain);
      transport = new SmtpTransport({ hostname: config.hostname });
      builder = createMessageBuilder(config.buildThreads);
      const deliverer = new Deliverer(
        {
          hostname: config.hostname,
          testDomain: config.testDomain,
          returnPathLabel: config.returnPathLabel,
          relay: config.relayUrl ? relayTarget(config.relayUrl) : undefined,
          mxPort: config.mxPort,
          allowPrivateNetworks: config.allowPrivateNetworks,
          sourceIps: config.sourceIps,
        },
        {
          dns,
          dkim,
          verp,
          transport,
          builder,
          limits: new DestinationLimits({ rules: config.destinationRules }, () => clock.now()),
          verifiedDomains: (accountId) => verifiedDomains.verifiedDomains(accountId),
          clock,
        },
      );
      worker = new DeliveryWorker(repos.queue, deliverer, clock, logger.child({ role: 'worker' }), {
        ...DEFAULT_WORKER_OPTIONS,
        concurrency: config.workerConcurrency,
        leaseMs: config.workerLeaseSeconds * 1000,
        ...options,
      });
      worker.start();
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
    async close() {
      await domainChecker?.stop();
      await worker?.stop();
      await transport?.close();
      await builder?.close();
      await batcher.drain();
      await db.close();
    },
  };
}
