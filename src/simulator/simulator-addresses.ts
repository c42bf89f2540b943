// Simulator addresses (docs/design.md §16): mail to `<kind>@simulator.<test domain>` is accepted like
// a test send (in the sandbox, from a domain not yet verified, counted against the day's test sends)
// and goes through the queue, its states, events and webhooks like any message, but never leaves the
// machine: the worker answers it for the recipient (simulator-transport.ts). Which mail is the
// simulator's (simulatorTest) and what each address does are here, pure, so the accept path, the worker,
// the Deliverer and the receiver agree on them.
import type { BounceCategory } from '../bounce/categories.js';

const SIMULATOR_KINDS = ['delivered', 'bounce', 'complaint', 'delayed', 'suppressed'] as const;
type SimulatorKind = (typeof SIMULATOR_KINDS)[number];

/** The label under the test domain that holds the simulator's addresses. */
const SIMULATOR_LABEL = 'simulator';

export function simulatorDomain(testDomain: string): string {
  return `${SIMULATOR_LABEL}.${testDomain.toLowerCase()}`;
}

/** Whether mail to a recipient domain is the simulator's. */
export type IsSimulated = (recipientDomain: string) => boolean;

/**
 * The one test of whether mail is the simulator's, by its recipient domain: the accept path, the worker,
 * the Deliverer and the receiver all ask it. Every address there is simulated (an unknown local part is
 * delivered), so nothing addressed to it is ever sent out.
 */
export function simulatorTest(testDomain: string): IsSimulated {
  const domain = simulatorDomain(testDomain);
  return (recipientDomain) => recipientDomain.toLowerCase() === domain;
}

/** What an address of the simulator does; an unknown local part is delivered. */
export function simulatorKind(email: string): SimulatorKind {
  const local = email.slice(0, email.lastIndexOf('@')).toLowerCase();
  return (SIMULATOR_KINDS as readonly string[]).includes(local) ? (local as SimulatorKind) : 'delivered';
}

/** The reply the simulated recipient's server gives to one attempt. */
interface SimulatedReply {
  outcome: 'delivered' | 'deferred' | 'bounced';
  smtpCode: number;
  enhanced: string;
  reply: string;
  category: BounceCategory | null;
  reason: string;
  /** After this delivery, a complaint report comes back (complaint@). */
  complaint: boolean;
}

/**
 * The answer to an attempt (`attemptsBefore`: attempts already made). delayed@ is deferred once (a full
 * mailbox, so the retry schedule applies) and delivered on the retry; suppressed@ is refused as an
 * address a hard bounce put on a suppression list would be.
 */
export function simulatedReply(kind: SimulatorKind, attemptsBefore: number): SimulatedReply {
  const ok = (complaint: boolean): SimulatedReply => ({
    outcome: 'delivered',
    smtpCode: 250,
    enhanced: '2.0.0',
    reply: '250 2.0.0 simulator: delivered',
    category: null,
    reason: '',
    complaint,
  });
  switch (kind) {
    case 'delivered':
      return ok(false);
    case 'complaint':
      return ok(true);
    case 'bounce':
      return {
        outcome: 'bounced',
        smtpCode: 550,
        enhanced: '5.1.1',
        reply: '550 5.1.1 simulator: the mailbox does not exist',
        category: 'unknown_recipient',
        reason: 'the mailbox does not exist (simulated)',
        complaint: false,
      };
    case 'suppressed':
      return {
        outcome: 'bounced',
        smtpCode: 550,
        enhanced: '5.1.1',
        reply: '550 5.1.1 simulator: the address is on a suppression list',
        category: 'unknown_recipient',
        reason: 'the address is on a suppression list (simulated)',
        complaint: false,
      };
    case 'delayed':
      if (attemptsBefore > 0) return ok(false);
      return {
        outcome: 'deferred',
        smtpCode: 452,
        enhanced: '4.2.2',
        reply: '452 4.2.2 simulator: mailbox full, try again later',
        category: 'mailbox_full',
        reason: 'the mailbox is full (simulated); retried',
        complaint: false,
      };
  }
}

/**
 * The abuse report (RFC 5965) the simulated recipient sends about a message after complaint@: the
 * receiver reads it like any feedback loop's, matching the message by its VERP address.
 */
export function simulatedComplaintReport(input: {
  verp: string;
  to: string;
  testDomain: string;
  /** The header section of the message as sent. */
  headers: string;
  now: Date;
}): Buffer {
  const boundary = `simulator-${input.now.getTime()}`;
  const from = `complaint@${simulatorDomain(input.testDomain)}`;
  const lines = [
    `From: <${from}>`,
    `Date: ${input.now.toUTCString()}`,
    'Subject: Simulated complaint',
    `To: <${input.verp}>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=feedback-report; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'The recipient marked this message as spam (a complaint from the txmail simulator).',
    '',
    `--${boundary}`,
    'Content-Type: message/feedback-report',
    '',
    'Feedback-Type: abuse',
    'User-Agent: txmail-simulator/1',
    'Version: 1',
    `Original-Mail-From: <${input.verp}>`,
    `Original-Rcpt-To: <${input.to}>`,
    `Arrival-Date: ${input.now.toUTCString()}`,
    '',
    `--${boundary}`,
    'Content-Type: text/rfc822-headers',
    '',
    input.headers.replace(/\r?\n$/, ''),
    '',
    `--${boundary}--`,
    '',
  ];
  return Buffer.from(lines.join('\r\n'));
}
