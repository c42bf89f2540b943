// The webhook dispatcher and the inbound recovery pass run on the delivery worker's claim loop
// (src/lease-loop.ts), so they take a wake-up the way it does: one that arrives during a claim is
// followed by another claim, not by a sleep until the next poll. Their poll intervals are set to ten
// minutes here, so only a wake can bring the second claim within the test's time.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { InboundRepo } from '../../src/db/inbound-repo.js';
import type { WebhookOutboxRepo } from '../../src/db/webhook-outbox-repo.js';
import type { Verp } from '../../src/delivery/verp.js';
import { InboundProcessor } from '../../src/inbound/inbound-processor.js';
import type { ReportParser } from '../../src/inbound/report-parser.js';
import { WakeSignals } from '../../src/wake-signals.js';
import { DEFAULT_DISPATCHER_OPTIONS, WebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import type { WebhookSender } from '../../src/webhooks/webhook-sender.js';
import { until } from '../helpers/wait.js';

const silent = pino({ level: 'silent' });
const clock = { now: () => Date.now() };
const TEN_MINUTES = 10 * 60_000;

describe('the loops that share the delivery worker’s claim loop', () => {
  it('the dispatcher looks at the outbox again when woken while it reads when the next push is due', async () => {
    const held: (() => void)[] = [];
    let reads = 0;
    const outbox = {
      nextDue: () =>
        new Promise<number | undefined>((resolve) => {
          reads++;
          held.push(() => resolve(undefined));
        }),
      claimDue: async () => [],
      jobs: async () => [],
      releaseAll: async () => 0,
      recordMany: async () => [],
    } as unknown as WebhookOutboxRepo;
    const d = new WebhookDispatcher(outbox, {} as WebhookSender, clock, silent, async () => undefined, {
      ...DEFAULT_DISPATCHER_OPTIONS,
      pollMs: TEN_MINUTES,
    });
    const signals = new WakeSignals();
    signals.webhookPushesQueued.on(() => d.wake());
    d.start();
    await until('the first read', async () => (held.length > 0 ? true : undefined));
    signals.webhookPushesQueued.emit(); // during the read
    held.shift()!();
    await until('a second read', async () => (reads >= 2 ? true : undefined), 2000);
    const stopped = d.stop();
    held.shift()?.();
    await stopped;
    expect(reads).toBe(2);
  });

  it('the inbound recovery pass claims again when inboundStored is emitted, between its polls', async () => {
    let claims = 0;
    const repo = {
      prune: async () => 0,
      claimPending: async () => {
        claims++;
        return [];
      },
    } as unknown as InboundRepo;
    const processor = new InboundProcessor({
      repo,
      parser: {} as ReportParser,
      verp: {} as Verp,
      clock,
      logger: silent,
      hostname: 'mta.txmail.test',
    });
    const signals = new WakeSignals();
    signals.inboundStored.on(() => processor.wake());
    processor.startRecovery(TEN_MINUTES);
    await until('the first pass', async () => (claims >= 1 ? true : undefined), 2000);
    signals.inboundStored.emit();
    await until('a pass on the signal', async () => (claims >= 2 ? true : undefined), 2000);
    await processor.stop();
    expect(claims).toBe(2);
  });
});
