// The worker role (`txmail worker`, part of `txmail serve`): the delivery worker with its transport,
// message builder and source addresses, the webhook dispatcher, and the periodic jobs: retention
// sweeps, reputation sweeps, TLS reports, domain re-checks and blocklist checks.
import { listingMail } from '../blocklists/listing-mail.js';
import {
  BlocklistMonitor,
  DEFAULT_BLOCKLIST_MONITOR_OPTIONS,
  type BlocklistMonitorOptions,
  type CheckResult,
} from '../blocklists/monitor.js';
import { blocklistPlanNow } from '../blocklists/targets.js';
import { utcDay } from '../clock.js';
import type { Config } from '../config.js';
import { compressRaw } from '../db/messages-repo.js';
import { Deliverer, relayTarget } from '../delivery/deliver-message.js';
import { DestinationBlocks } from '../delivery/destination-blocks.js';
import { DestinationLimits } from '../delivery/destination-limits.js';
import { createMessageBuilder, type MessageBuilder } from '../delivery/message-builder.js';
import { ATTEMPT_TIMEOUT_MS, SmtpTransport, type SmtpTransportOptions } from '../delivery/smtp-transport.js';
import { SourceIpPool } from '../delivery/source-ip-pool.js';
import { DEFAULT_WORKER_OPTIONS, DeliveryWorker, type WorkerOptions } from '../delivery/worker.js';
import { DnsCache } from '../dns/dns-cache.js';
import { DnsResolver } from '../dns/resolver.js';
import {
  DEFAULT_DOMAIN_CHECKER_OPTIONS,
  DomainChecker,
  type DomainCheckerOptions,
} from '../domains/domain-checker.js';
import { OperatorMail } from '../messages/operator-mail.js';
import { isFinalStatus } from '../reputation/counts.js';
import { PausedAccounts } from '../reputation/paused-accounts.js';
import { RetentionSweeper } from '../retention/retention-sweeper.js';
import { simulatorTest } from '../simulator/simulator-addresses.js';
import { SimulatorTransport } from '../simulator/simulator-transport.js';
import { MtaStsPolicies } from '../mta-sts/mta-sts-policies.js';
import { TlsReportCounter } from '../tls-reports/counter.js';
import { DEFAULT_REPORTER_OPTIONS, TlsReporter } from '../tls-reports/reporter.js';
import { reportSenders } from '../tls-reports/send-report.js';
import { webhookDisabledMail } from '../webhooks/disabled-mail.js';
import {
  DEFAULT_DISPATCHER_OPTIONS,
  WebhookDispatcher,
  type DispatcherOptions,
} from '../webhooks/dispatcher.js';
import type { Core, Role } from './core.js';

export interface WorkerRole extends Role {
  /** Everything the role runs: delivery with webhooks, domain checks and blocklist checks. */
  start(): Promise<void>;
  /**
   * Starts the delivery worker and the webhook dispatcher once, with the retention sweeps, reputation
   * sweeps and TLS reports. `transportOptions.ca`: certificate authorities trusted besides the
   * system's when checking receiving servers (tests of TLS policy).
   */
  startDelivery(
    options?: Partial<WorkerOptions>,
    webhookOptions?: Partial<DispatcherOptions>,
    transportOptions?: Pick<SmtpTransportOptions, 'ca'>,
  ): Promise<DeliveryWorker>;
  /** Starts the periodic re-check of domains. */
  startDomainChecker(options?: Partial<DomainCheckerOptions>): DomainChecker;
  /** Starts the periodic blocklist check (when TXMAIL_DNSBL_ZONES names any zone; one process checks). */
  startBlocklistMonitor(options?: Partial<BlocklistMonitorOptions>): BlocklistMonitor;
  /** Stops what finds work first, then the work in flight, then what it sends with. */
  stop(): Promise<void>;
}

/** How often a worker shares its source address counts (warm-up caps) with the others. */
const SOURCE_SYNC_MS = 5000;
/** How often a worker reads which source addresses a blocklist holds (the checking process: at once). */
const LISTED_REFRESH_MS = 30_000;

export function createWorkerRole(core: Core): WorkerRole {
  const { config, repos, clock, logger } = core;
  const retention = new RetentionSweeper(repos.retention, clock, logger.child({ role: 'retention' }));
  let worker: DeliveryWorker | undefined;
  let dispatcher: WebhookDispatcher | undefined;
  let transport: SmtpTransport | undefined;
  let builder: MessageBuilder | undefined;
  let deliverer: Deliverer | undefined;
  let sourceSync: NodeJS.Timeout | undefined;
  let stopListening: (() => Promise<void>) | undefined;
  let domainChecker: DomainChecker | undefined;
  let blocklistMonitor: BlocklistMonitor | undefined;
  let listedRefresh: NodeJS.Timeout | undefined;
  /** Sets this worker's listed source addresses aside (blocklists/); undefined until the worker starts. */
  let refreshListed: (() => Promise<void>) | undefined;
  let tlsCounter: TlsReportCounter | undefined;
  let mtaSts: MtaStsPolicies | undefined;
  let tlsReporter: TlsReporter | undefined;
  const unsubscribe: (() => void)[] = [];
  const role: WorkerRole = {
    async start() {
      await role.startDelivery();
      role.startDomainChecker();
      role.startBlocklistMonitor();
    },
    async startDelivery(options = {}, webhookOptions = {}, transportOptions = {}) {
      if (worker) return worker;
      // Everything that can fail (the database) before anything that must be closed again (sockets,
      // threads): a failed start leaves nothing open, and a second start builds afresh.
      await core.dkim.ensureServiceKey(config.testDomain);
      // Registered (and the dead swept) before the first claim: a restart takes its predecessor's work.
      // As a process that delivers: the worker processes share each destination's limits.
      await core.registry.deliversMail();
      await core.registry.start();
      const sources = new SourceIpPool(
        config.sourceIps.map((address) => ({ address, warmingSince: config.warmingSince[address] })),
        config.warmupSchedule,
        () => clock.now(),
        repos.sourceIpUsage,
      );
      await repos.sourceIpUsage.deleteBefore(utcDay(clock.now() - 86_400_000));
      await sources.sync();
      transport = new SmtpTransport({
        hostname: config.hostname,
        now: () => clock.now(),
        // The attempt's whole 5 minutes, whatever the lease: the worker renews the leases of what it has
        // in hand (worker.ts renewLeases). Cut to half a short lease, a hanging primary MX took all of an
        // attempt's 30 s and its healthy backup was never tried (a fault probe, a 60 s lease).
        attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
        ...transportOptions,
      });
      builder = createMessageBuilder(config.buildThreads);
      sourceSync = setInterval(() => {
        sources.sync().catch((err: unknown) => logger.warn({ err }, 'could not sync source address counts'));
      }, SOURCE_SYNC_MS);
      sourceSync.unref();
      const zones = config.blocklistZones.map((z) => z.zone);
      if (zones.length > 0 && config.sourceIps.length > 1) {
        refreshListed = async () => sources.setListed(await repos.blocklists.listedAddresses(zones));
        await refreshListed();
        listedRefresh = setInterval(() => {
          refreshListed?.().catch((err: unknown) =>
            logger.warn({ err }, 'could not read the blocklisted source addresses'),
          );
        }, LISTED_REFRESH_MS);
        listedRefresh.unref();
      }
      ({ tlsCounter, tlsReporter } = tlsReporting(config, core, transport));
      deliverer = newDeliverer(config, core, {
        transport,
        builder,
        sources,
        ...tlsPolicyDeps((mtaSts = mtaStsPolicies(config, core)), tlsCounter),
      });
      const leases = { owner: core.registry.id, canClaim: () => core.registry.canClaim() };
      dispatcher = newDispatcher(config, core, { ...leases, ...webhookOptions });
      const held = heldAccounts(core);
      unsubscribe.push(core.signals.reputationChanged.on(() => held.invalidate()));
      worker = newDeliveryWorker(config, core, deliverer, held, {
        ...leases,
        leaseCheck: () => core.registry.leaseCheck(),
        ...options,
      });
      // Mail queued here or released from a dead process, and pushes queued by this process's delivery
      // results or inbound reports, are taken now, not at the next poll (wake-signals.ts).
      const woken = worker;
      const pushing = dispatcher;
      unsubscribe.push(
        core.signals.messagesQueued.on(() => woken.wake()),
        core.signals.webhookPushesQueued.on(() => pushing.wake()),
      );
      worker.start();
      retention.start();
      dispatcher.start();
      core.reputation.startSweeps();
      tlsCounter?.start();
      tlsReporter?.start();
      // Mail queued by other processes (PostgreSQL NOTIFY) is one more source of the same signal.
      stopListening = await core.queueSignal.listen(
        () => core.signals.messagesQueued.emit(),
        (err) => logger.warn({ err }, 'lost the queue notification channel; polling until it is back'),
      );
      return worker;
    },
    startDomainChecker(options = {}) {
      // Its claims wait for this process to be registered (the worker role's start registers it too).
      core.registry.start().catch((err: unknown) => logger.warn({ err }, 'could not register this process'));
      domainChecker ??= new DomainChecker(
        core.domains,
        repos.domains,
        clock,
        logger.child({ role: 'domains' }),
        {
          ...DEFAULT_DOMAIN_CHECKER_OPTIONS,
          owner: core.registry.id,
          canClaim: () => core.registry.canClaim(),
          ...options,
        },
      );
      domainChecker.start();
      return domainChecker;
    },
    startBlocklistMonitor(options = {}) {
      core.registry.start().catch((err: unknown) => logger.warn({ err }, 'could not register this process'));
      blocklistMonitor ??= new BlocklistMonitor(
        repos.blocklists,
        // Its own resolver (same servers): stopping cancels its look-ups, not delivery's.
        new DnsResolver(config.dnsServers),
        clock,
        logger.child({ role: 'blocklists' }),
        // Customers' return-path names are read at each check: domains are added and verified meanwhile.
        () => blocklistPlanNow(config, repos.domains),
        blocklistsChecked(config, core, () => refreshListed?.()),
        {
          ...DEFAULT_BLOCKLIST_MONITOR_OPTIONS,
          intervalMs: config.blocklistIntervalMs,
          owner: core.registry.id,
          canClaim: () => core.registry.canClaim(),
          ...options,
        },
      );
      if (config.blocklistZones.length > 0) blocklistMonitor.start();
      return blocklistMonitor;
    },
    async stop() {
      for (const off of unsubscribe.splice(0)) off();
      clearInterval(sourceSync);
      clearInterval(listedRefresh);
      await blocklistMonitor?.stop();
      await stopListening?.();
      await retention.stop();
      await domainChecker?.stop();
      await tlsReporter?.stop();
      // No attempt starts after the stop began: those waiting for a connection go back to the queue.
      deliverer?.stopWaiting();
      await worker?.stop();
      // Policy fetches no delivery waits for any more end too: they would hold the process a minute.
      mtaSts?.close();
      // After the worker: its last attempts' sessions are counted too.
      await tlsCounter?.stop();
      await dispatcher?.stop();
      await transport?.close();
      await builder?.close();
    },
  };
  return role;
}

/**
 * What follows a blocklist check this process ran: its worker sets listed source addresses aside at
 * once (other workers within LISTED_REFRESH_MS), and the operator is told of new and ended listings.
 */
function blocklistsChecked(
  config: Config,
  { repos, accounts, systemMail, logger }: Core,
  refreshListed: () => Promise<void> | undefined,
): (result: CheckResult) => Promise<void> {
  const operator =
    config.operatorEmail === undefined
      ? undefined
      : new OperatorMail(config.operatorEmail, {
          accounts,
          repo: repos.accounts,
          systemMail,
        });
  return async (result) => {
    await refreshListed();
    if (!operator || result.changes.length === 0) return;
    const mail = listingMail(result.changes, result.listings, config.sourceIps);
    await operator.send(mail.subject, mail.html).catch((err: unknown) => {
      logger.warn({ err }, 'could not queue the blocklist mail to the operator');
    });
  };
}

/** Recipient domains' MTA-STS policies, for MX delivery only (through a relay no MX is chosen). */
function mtaStsPolicies(config: Config, { dns, repos, clock, logger }: Core): MtaStsPolicies | undefined {
  return config.mtaSts && !config.relayUrl
    ? new MtaStsPolicies(dns, repos.mtaSts, clock, logger.child({ role: 'mta-sts' }), {
        allowPrivate: config.allowPrivateNetworks,
      })
    : undefined;
}

/**
 * What MTA-STS and TLS reporting give the Deliverer (ARCHITECTURE.md, "TLS policy"): the recipient
 * domain's policy (MX delivery only: through a relay no MX is chosen) and the session counter.
 */
function tlsPolicyDeps(
  policies: MtaStsPolicies | undefined,
  counter: TlsReportCounter | undefined,
): Pick<ConstructorParameters<typeof Deliverer>[1], 'tlsPolicy' | 'tlsReports'> {
  return {
    ...(policies ? { tlsPolicy: (domain: string) => policies.requirement(domain) } : {}),
    ...(counter ? { tlsReports: counter } : {}),
  };
}

/** The TLS-RPT session counter and the daily report job (TXMAIL_TLS_REPORTS). */
function tlsReporting(
  config: Config,
  { dns, dkim, repos, clock, logger, registry }: Core,
  transport: SmtpTransport,
): { tlsCounter?: TlsReportCounter; tlsReporter?: TlsReporter } {
  if (!config.tlsReports) return {};
  const reportLogger = logger.child({ role: 'tls-reports' });
  const tlsCounter = new TlsReportCounter(repos.tlsReports, clock, reportLogger);
  const from = `tls-reports@${config.testDomain}`;
  const tlsReporter = new TlsReporter(
    {
      repo: repos.tlsReports,
      dns,
      senders: reportSenders({
        dns,
        transport,
        relay: config.relayUrl ? relayTarget(config.relayUrl) : undefined,
        mxPort: config.mxPort,
        sourceIp: config.sourceIps[0],
        allowPrivate: config.allowPrivateNetworks,
      }),
      signingKey: () => dkim.signingKey(config.testDomain, null),
      clock,
      logger: reportLogger,
      beforeRun: () => tlsCounter.flush(),
    },
    {
      ...DEFAULT_REPORTER_OPTIONS,
      submitter: config.hostname,
      contact: config.operatorEmail ?? from,
      from,
      owner: registry.id,
      canClaim: () => registry.canClaim(),
    },
  );
  return { tlsCounter, tlsReporter };
}

function newDeliverer(
  config: Config,
  { dns, dkim, verp, sealedHtml, verifiedDomains, repos, clock, logger, metrics, signals, registry }: Core,
  parts: { transport: SmtpTransport; builder: MessageBuilder; sources: SourceIpPool } & Pick<
    ConstructorParameters<typeof Deliverer>[1],
    'tlsPolicy' | 'tlsReports'
  >,
): Deliverer {
  return new Deliverer(
    {
      hostname: config.hostname,
      testDomain: config.testDomain,
      returnPathLabel: config.returnPathLabel,
      relay: config.relayUrl ? relayTarget(config.relayUrl) : undefined,
      mxPort: config.mxPort,
      allowPrivateNetworks: config.allowPrivateNetworks,
    },
    {
      dns: new DnsCache(dns, () => clock.now()),
      dkim,
      verp,
      ...parts,
      limits: new DestinationLimits(
        { rules: config.destinationRules, share: () => registry.deliveryWorkers() },
        () => clock.now(),
        // Parked messages whose destination has room again are made due now, and the worker woken.
        (parked) => {
          repos.queue.recall(parked, clock.now()).then(
            (n) => (n > 0 ? signals.messagesQueued.emit() : undefined),
            (err: unknown) => logger.warn({ err }, 'could not call parked messages back'),
          );
        },
      ),
      blocks: new DestinationBlocks(
        repos.destinationBlocks,
        config.destinationBlocks,
        () => clock.now(),
        logger.child({ role: 'worker' }),
        () => metrics.senderBlocks.inc(),
      ),
      verifiedDomains: (accountId) => verifiedDomains.verifiedDomains(accountId),
      domainTls: (accountId, name) => verifiedDomains.tls(accountId, name),
      domainStatus: (accountId, name) => repos.domains.statusOf(accountId, name),
      // Kept with the attempt's record, in its transaction (db/queue-record.ts).
      keepRaw: (signed, gzipped) =>
        compressRaw(signed, clock.now(), gzipped).catch((err: unknown) => {
          logger.warn({ err }, 'could not keep the bytes sent');
          return undefined;
        }),
      simulator: new SimulatorTransport({
        testDomain: config.testDomain,
        storeReport: (row) => repos.inbound.store(row),
        wakeReceiver: () => signals.inboundStored.emit(),
        clock,
      }),
      sealedHtml,
      clock,
    },
  );
}

function newDispatcher(
  config: Config,
  { repos, webhookSender, systemMail, clock, logger }: Core,
  options: Partial<DispatcherOptions>,
): WebhookDispatcher {
  const webhookLogger = logger.child({ role: 'webhooks' });
  return new WebhookDispatcher(
    repos.webhookOutbox,
    webhookSender,
    clock,
    webhookLogger,
    async (job, notice) => {
      const mail = webhookDisabledMail(job.webhook.url, notice.message, config.publicUrl);
      await systemMail.send(job.webhook.account_id, mail.subject, mail.html).catch((err: unknown) => {
        webhookLogger.warn({ err, webhookId: job.webhook.id }, 'could not queue the webhook-disabled mail');
      });
    },
    {
      ...DEFAULT_DISPATCHER_OPTIONS,
      perEndpoint: config.webhookEndpointConcurrency,
      perAccount: config.webhookAccountConcurrency,
      ...options,
    },
  );
}

/** Paused by the reputation guard or suspended by the operator: either way its queued mail waits. */
function heldAccounts({ repos, clock, logger }: Core): PausedAccounts {
  return new PausedAccounts(
    () => repos.accountReputation.held(),
    clock,
    (err) => logger.warn({ err }, 'could not read the paused accounts; the last list read stands'),
    1000,
    (accountId) => repos.accountReputation.isHeld(accountId),
  );
}

function newDeliveryWorker(
  config: Config,
  { repos, metrics, reputation, clock, logger }: Core,
  deliverer: Deliverer,
  paused: PausedAccounts,
  options: Partial<WorkerOptions>,
): DeliveryWorker {
  const isSimulated = simulatorTest(config.testDomain);
  return new DeliveryWorker(
    repos.queue,
    deliverer,
    clock,
    logger.child({ role: 'worker' }),
    {
      ...DEFAULT_WORKER_OPTIONS,
      concurrency: config.workerConcurrency,
      leaseMs: config.workerLeaseSeconds * 1000,
      stopGraceMs: config.workerStopSeconds * 1000,
      // A paused or suspended account's mail waits; the service's own (its notices, the guided test) still goes.
      held: async (m) => m.from_domain !== config.testDomain && (await paused.has(m.account_id)),
      simulated: (m) => isSimulated(m.to_domain),
      ...options,
    },
    {
      recorded: (m, record, outcome) => {
        if (record.attempt) {
          metrics.attempts.inc({ outcome: record.attempt.outcome });
          metrics.countTls(record.attempt);
        }
        if (outcome === 'superseded') return; // its status and events were not stored
        for (const e of record.events) metrics.countEvent(e);
        if (record.events.some((e) => e.type === 'email.bounced' || e.type === 'email.complained'))
          reputation.soon(m.account_id);
        else if (isFinalStatus(record.status)) reputation.counted(m.account_id);
        if (record.status === 'delivered')
          metrics.deliveryLatency.observe((record.now - m.created_at) / 1000);
      },
    },
  );
}
