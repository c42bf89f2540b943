// The core every role of a process runs on (docs/design.md §1): the configuration, logger, clock and
// database with its repositories, metrics and wake-up signals, the registry of live processes, and the
// parts more than one role uses: sending identity (DKIM, VERP, domains), the accept path and the
// service's own mail, API-key authentication, accounts, suppressions, webhooks and the reputation guard.
// Built once per process; roles (api.ts, worker.ts, inbound.ts, health.ts) take it whole and start
// only their own parts. The operator commands use it alone.
import type { Logger } from 'pino';
import { Accounts } from '../accounts/accounts.js';
import { ApiKeyAuth } from '../accounts/api-key-auth.js';
import { PasswordHasher } from '../accounts/passwords.js';
import { blocklistPlanNow, currentListings } from '../blocklists/targets.js';
import { systemClock, type Clock } from '../clock.js';
import type { Config } from '../config.js';
import { sealedHtmlBox, type SealedHtml } from '../messages/sealed-html.js';
import { deriveKey } from '../crypto/derive-key.js';
import { SecretBox } from '../crypto/secret-box.js';
import { migrate, openDatabase, type Db, type OpenOptions } from '../db/database.js';
import { dialectSeams } from '../db/dialect.js';
import type { QueueSignal } from '../db/seams.js';
import { Verp } from '../delivery/verp.js';
import { DkimKeys } from '../dkim/dkim-keys.js';
import type { DkimKeyPair } from '../dkim/keys.js';
import { DnsResolver } from '../dns/resolver.js';
import type { Domains } from '../domains/domains.js';
import { VerifiedDomains } from '../domains/verified-domains.js';
import { createLogger } from '../log.js';
import type { AcceptService } from '../messages/accept.js';
import type { SystemMail } from '../messages/system-mail.js';
import type { AcceptWriter } from '../accept/writer.js';
import { Metrics } from '../metrics.js';
import { defaultRegistryOptions, ProcessRegistry } from '../process-registry.js';
import { windowStart } from '../reputation/counts.js';
import { ReputationGuard } from '../reputation/guard.js';
import { loadSecretKey } from '../secret-key.js';
import { Suppressions } from '../suppressions/suppressions.js';
import { WakeSignals } from '../wake-signals.js';
import type { WebhookEndpoints } from '../webhooks/webhook-endpoints.js';
import type { WebhookSender } from '../webhooks/webhook-sender.js';
import { createAcceptPath } from '../wiring/accept-path.js';
import { createDomains } from '../wiring/domains.js';
import { createRepos, type Repos } from '../wiring/repos.js';
import { createWebhooks } from '../wiring/webhooks.js';

/** What a role is to the process that runs it: started once, stopped once (cli.ts orders them). */
export interface Role {
  start(): Promise<unknown>;
  stop(): Promise<void>;
}

export interface Core {
  config: Config;
  logger: Logger;
  clock: Clock;
  db: Db;
  repos: Repos;
  /** The key every other secret is derived from (secret-key.ts); the api role derives its session key. */
  secretKey: string;
  metrics: Metrics;
  /** This process's wake-ups: the named signals its claim loops listen to (wake-signals.ts). */
  signals: WakeSignals;
  /** Tells worker processes that mail was queued (PostgreSQL NOTIFY/LISTEN); the worker role listens. */
  queueSignal: QueueSignal;
  /** This process in the registry of live processes; started by the worker and inbound roles. */
  registry: ProcessRegistry;
  dns: DnsResolver;
  dkim: DkimKeys;
  verp: Verp;
  /** Seals the HTML of the service's mail that carries a sign-in link; the worker opens it. */
  sealedHtml: SealedHtml;
  verifiedDomains: VerifiedDomains;
  domains: Domains;
  /** The accept writer (accept/writer.ts): every message, the API's and the service's own, goes through it. */
  batcher: AcceptWriter;
  accept: AcceptService;
  systemMail: SystemMail;
  auth: ApiKeyAuth;
  /** New passwords' hashes, at TXMAIL_PASSWORD_COST. */
  passwords: PasswordHasher;
  accounts: Accounts;
  suppressions: Suppressions;
  webhooks: WebhookEndpoints;
  /** Signs and sends webhook pushes: the API's test pushes and the worker role's dispatcher. */
  webhookSender: WebhookSender;
  /** Judges accounts' bounce and complaint rates and moves their reputation state (reputation/guard.ts). */
  reputation: ReputationGuard;
  /** After every role of the process has stopped: the last judgements, the registry, the writer, the database. */
  close(): Promise<void>;
}

export interface CoreOptions {
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

export async function createCore(config: Config, options: CoreOptions = {}): Promise<Core> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const db = openDatabase(config.databaseUrl, { poolSize: config.databasePool, ...options.db });
  if (options.migrate !== false) {
    let told = false;
    // Another process is migrating the same SQLite file (db/sqlite/migration-lock.ts): said once.
    const onWait = () => {
      if (!told) logger.info('waiting for another process to finish migrating the database');
      told = true;
    };
    await migrate(db, { onWait });
  }
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
  const sealedHtml = sealedHtmlBox(secretKey);
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
    sealedHtml,
  });
  const passwords = new PasswordHasher(config.passwordCost);
  const auth = new ApiKeyAuth(repos.accounts, clock, (err) =>
    logger.warn({ err }, 'could not record key use'),
  );
  const domains = createDomains(config, { repos, dkim, dns, verifiedDomains, auth, clock });
  const webhooks = createWebhooks(config, { repos, secretKey, dns, metrics, clock, logger });
  const reputation = new ReputationGuard({
    counts: repos.reputation,
    states: repos.accountReputation,
    thresholds: config.reputation,
    mail: (accountId, subject, html) => accepting.systemMail.send(accountId, subject, html),
    publicUrl: config.publicUrl,
    clock,
    logger: logger.child({ role: 'reputation' }),
    changed: () => {
      auth.invalidate();
      signals.reputationChanged.emit();
    },
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

  return {
    config,
    logger,
    clock,
    db,
    repos,
    secretKey,
    sealedHtml,
    metrics,
    signals,
    queueSignal,
    registry,
    dns,
    dkim,
    verp,
    verifiedDomains,
    domains,
    batcher: accepting.writer,
    accept: accepting.accept,
    systemMail: accepting.systemMail,
    auth,
    passwords,
    accounts: new Accounts(repos.accounts, clock, repos.members, passwords),
    suppressions: new Suppressions(repos.suppressions, clock),
    webhooks: webhooks.endpoints,
    webhookSender: webhooks.sender,
    reputation,
    async close() {
      // Its last judgements may queue an email through the accept writer, closed below.
      await reputation.stop();
      // Leaves the registry, giving back whatever the roles still held (inbound reports mid-parse).
      await registry.stop();
      // The roles may have queued mail (a webhook-disabled notice, a reset link) through the accept
      // writer, which commits it as it closes, before the database.
      await accepting.close();
      await db.close();
    },
  };
}
