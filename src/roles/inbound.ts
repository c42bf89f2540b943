// The inbound role (`txmail inbound`, part of `txmail serve`): the bounce and complaint receiver (SMTP),
// the processor behind it, and the thread it parses reports on.
import { InboundBudget } from '../inbound/inbound-budget.js';
import { InboundProcessor } from '../inbound/inbound-processor.js';
import { InboundReceiver } from '../inbound/receiver.js';
import { ThreadedReportParser } from '../inbound/report-parser.js';
import type { Core, Role } from './core.js';
import { simulatorTest } from '../simulator/simulator-addresses.js';

export interface InboundRole extends Role {
  /**
   * Starts the receiver (on TXMAIL_INBOUND_PORT, or `port`: 0 picks one) and the recovery pass once,
   * registered in the registry of live processes, whose leases it takes.
   */
  start(options?: { port?: number }): Promise<InboundReceiver>;
  /** Stops taking mail, then processing it. */
  stop(): Promise<void>;
}

export function createInboundRole(core: Core): InboundRole {
  const { config, repos, verp, metrics, clock } = core;
  let receiver: InboundReceiver | undefined;
  let processor: InboundProcessor | undefined;
  let parser: ThreadedReportParser | undefined;
  let stopWaking: (() => void) | undefined;
  return {
    async start(options = {}) {
      if (receiver) return receiver;
      const log = core.logger.child({ role: 'inbound' });
      await core.registry.start();
      parser = new ThreadedReportParser({ timeoutMs: config.inboundParseTimeoutMs });
      processor = new InboundProcessor({
        repo: repos.inbound,
        parser,
        verp,
        clock,
        logger: log,
        hostname: config.hostname,
        ourDkimKey: async (domain, selector) => {
          const key = await repos.dkimKeys.publicKey(domain, selector);
          return key && { publicKey: key.public_key, algorithm: key.algorithm, accountId: key.account_id };
        },
        sentHead: (accountId, messageId, maxBytes) => repos.messages.sentHead(accountId, messageId, maxBytes),
        isSimulated: simulatorTest(config.testDomain),
        owner: core.registry.id,
        canClaim: () => core.registry.canClaim(),
        processed: (kind, effects) => {
          metrics.inboundMessages.inc({ kind });
          for (const e of effects) {
            metrics.countEvent(e.event);
            if (e.event.type === 'email.bounced' || e.event.type === 'email.complained')
              core.reputation.soon(e.accountId);
          }
        },
      });
      receiver = await new InboundReceiver(
        {
          host: config.inboundHost,
          port: options.port ?? config.inboundPort,
          hostname: config.hostname,
          returnPathLabel: config.returnPathLabel,
          testDomain: config.testDomain,
          maxSize: config.inboundMaxSize,
          connectionsPerMinute: config.inboundConnectionsPerMinute,
          sessionsPerIp: config.inboundSessionsPerIp,
          sessionLifetimeMs: config.inboundSessionLifetimeMs,
          trustedNetworks: config.inboundTrustedNetworks,
          memory: { total: config.inboundMemory, perPeer: config.inboundMemoryPerIp },
        },
        {
          repo: repos.inbound,
          processor,
          verp,
          clock,
          logger: log,
          // In the database: every inbound process counts against one budget per client.
          budget: new InboundBudget(repos.attemptCounts, {
            messagesPerHour: config.inboundHourlyMessages,
            bytesPerHour: config.inboundHourlyBytes,
          }),
          limited: (limit) => metrics.inboundLimited.inc({ limit }),
        },
      ).listen();
      processor.startRecovery();
      // A dead process's reports were released: process them now, not at the next recovery pass.
      const recovering = processor;
      stopWaking = core.signals.inboundStored.on(() => recovering.wake());
      return receiver;
    },
    async stop() {
      stopWaking?.();
      await receiver?.close();
      // Closing the parser drops the parses still waiting (their messages stay leased, and are taken
      // up again by a recovery pass), so stopping the processor waits at most for the one running.
      await Promise.all([processor?.stop(), parser?.close()]);
    },
  };
}
