// The inbound role: the bounce and complaint receiver (SMTP), the processor behind it, and the thread
// it parses reports on.
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Verp } from '../delivery/verp.js';
import { InboundBudget } from '../inbound/inbound-budget.js';
import { InboundProcessor } from '../inbound/inbound-processor.js';
import { InboundReceiver } from '../inbound/receiver.js';
import { ThreadedReportParser } from '../inbound/report-parser.js';
import type { Metrics } from '../metrics.js';
import type { ProcessRegistry } from '../process-registry.js';
import type { ReputationGuard } from '../reputation/guard.js';
import type { WakeSignals } from '../wake-signals.js';
import type { Repos } from './repos.js';
import { simulatorDomain } from '../simulator/simulator-addresses.js';

export interface InboundRole {
  /** Starts the receiver and the recovery pass once; `port` 0 picks one. */
  start(options?: { port?: number }): Promise<InboundReceiver>;
  /** Stops taking mail, then processing it. */
  close(): Promise<void>;
}

export function createInboundRole(
  config: Config,
  deps: {
    repos: Repos;
    verp: Verp;
    metrics: Metrics;
    clock: Clock;
    logger: Logger;
    /** Whose leases this process takes (process-registry.ts). */
    registry: ProcessRegistry;
    /** inboundStored wakes the recovery pass (wake-signals.ts). */
    signals: WakeSignals;
    /** Judges an account soon after a bounce or complaint of its mail is recorded. */
    reputation: ReputationGuard;
  },
): InboundRole {
  const { repos, verp, metrics, clock } = deps;
  let receiver: InboundReceiver | undefined;
  let processor: InboundProcessor | undefined;
  let parser: ThreadedReportParser | undefined;
  let stopWaking: (() => void) | undefined;
  return {
    async start(options = {}) {
      if (receiver) return receiver;
      const log = deps.logger.child({ role: 'inbound' });
      await deps.registry.start();
      parser = new ThreadedReportParser({ timeoutMs: config.inboundParseTimeoutMs });
      processor = new InboundProcessor({
        repo: repos.inbound,
        parser,
        verp,
        clock,
        logger: log,
        hostname: config.hostname,
        simulatorDomain: simulatorDomain(config.testDomain),
        owner: deps.registry.id,
        canClaim: () => deps.registry.canClaim(),
        processed: (kind, effects) => {
          metrics.inboundMessages.inc({ kind });
          for (const e of effects) {
            metrics.countEvent(e.event);
            if (e.event.type === 'email.bounced' || e.event.type === 'email.complained')
              deps.reputation.soon(e.accountId);
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
      stopWaking = deps.signals.inboundStored.on(() => recovering.wake());
      return receiver;
    },
    async close() {
      stopWaking?.();
      await receiver?.close();
      // Closing the parser drops the parses still waiting (their messages stay leased, and are taken
      // up again by a recovery pass), so stopping the processor waits at most for the one running.
      await Promise.all([processor?.stop(), parser?.close()]);
    },
  };
}
