// The simulator's side of delivery (docs/design.md §16): answers an attempt to a simulator address as
// its recipient's server would, without a connection; the worker records the answer like any other
// (states, events, webhooks). After complaint@ is delivered, an abuse report about it is stored for the
// receiver, due a moment later, so the complaint arrives after the delivery is recorded and is read by
// the same code as a feedback loop's.
import type { Clock } from '../clock.js';
import type { ReceivedMessage } from '../db/schema.js';
import type { AttemptResult, DeliveryJob } from '../delivery/transport.js';
import { newId } from '../ids.js';
import {
  simulatedComplaintReport,
  simulatedReply,
  simulatorDomain,
  simulatorKind,
  simulatorTest,
  type IsSimulated,
} from './simulator-addresses.js';

/** How long after the simulated delivery its complaint report is due for the receiver. */
const COMPLAINT_DELAY_MS = 1000;

interface SimulatorDeps {
  testDomain: string;
  /** Stores a report for the receiver (InboundRepo.store). */
  storeReport(message: ReceivedMessage): Promise<void>;
  /** Wakes the receiver's recovery pass (wake-signals.ts inboundStored). */
  wakeReceiver(): void;
  clock: Clock;
}

export class SimulatorTransport {
  readonly domain: string;
  /** Whether it answers mail to the recipient domain (simulator-addresses.ts simulatorTest). */
  readonly handles: IsSimulated;

  constructor(private readonly deps: SimulatorDeps) {
    this.domain = simulatorDomain(deps.testDomain);
    this.handles = simulatorTest(deps.testDomain);
  }

  /** The answer to one attempt (`attemptsBefore`: attempts already made); stores complaint@'s report. */
  async deliver(job: DeliveryJob, attemptsBefore: number): Promise<AttemptResult> {
    const r = simulatedReply(simulatorKind(job.to), attemptsBefore);
    if (r.complaint) await this.complain(job);
    return {
      outcome: r.outcome,
      smtpCode: r.smtpCode,
      enhanced: r.enhanced,
      reply: r.reply,
      remoteHost: this.domain,
      remoteIp: null,
      tls: false,
      throttled: false,
      greylisted: false,
      category: r.category,
      reason: r.reason,
    };
  }

  private async complain(job: DeliveryJob): Promise<void> {
    const now = this.deps.clock.now();
    const headerEnd = job.raw.indexOf('\r\n\r\n');
    const headers = job.raw.subarray(0, headerEnd < 0 ? job.raw.length : headerEnd + 2).toString('latin1');
    const raw = simulatedComplaintReport({
      verp: job.from,
      to: job.to,
      testDomain: this.deps.testDomain,
      headers,
      now: new Date(now),
    });
    await this.deps.storeReport({
      id: newId(),
      received_at: now,
      remote_ip: '127.0.0.1',
      helo: this.domain,
      mail_from: '',
      rcpt_to: JSON.stringify([job.from]),
      size: raw.length,
      raw: raw.toString('base64'),
      status: 'pending',
      attempts: 0,
      // Due then: a pending report whose lease has ended is the recovery pass's (no owner: a wait).
      lease_expires_at: now + COMPLAINT_DELAY_MS,
      lease_owner: null,
      processed_at: null,
      outcome: null,
    });
    setTimeout(() => this.deps.wakeReceiver(), COMPLAINT_DELAY_MS + 50).unref();
  }
}
