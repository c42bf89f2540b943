// What a parsed bounce, complaint or other report does to the message it names: the event, the status
// change and the suppression (docs/design.md §4, §7). Pure: the matched message and the clock's facts come in.
import type { BouncedRecipient, InboundReport } from '../bounce/parse-report.js';
import { countsAgainstReputation, recordedCategory } from '../bounce/categories.js';
import { suppressesRecipient } from '../bounce/reply-intelligence.js';
import { MAX_LINE, MAX_NOTICE_TEXT } from '../bounce/text-limits.js';
import type { InboundEffect, InboundTarget } from '../db/inbound-repo.js';
import { peerText } from '../peer-text.js';
import { SPAM_COMPLAINT } from '../reputation/counts.js';

export interface DecideInput {
  report: InboundReport;
  target: InboundTarget;
  /** The inbound message's id, kept in the event so the report can be traced. */
  inboundId: string;
  /**
   * A permanent `mailbox_disabled` bounce (5.2.1 and its wordings) for this address was seen before
   * (ARCHITECTURE.md, "Reply intelligence": a disabled mailbox suppresses when it is reported again).
   */
  repeatedDisabled: boolean;
  newId: () => string;
  /**
   * The report's envelope sender ('' for the null sender). A bounce never comes from the address the
   * message went to: a message from it is that person writing (a reply pasting or attaching a bounce
   * she got elsewhere), never one about her mailbox.
   */
  mailFrom: string;
}

export type Decision = { effect: InboundEffect } | { skipped: string };

export function decideEffects(input: DecideInput): Decision {
  const { report, target } = input;
  if (target.status === 'test') return { skipped: 'test messages are never sent, so cannot bounce' };
  if (report.kind === 'complaint') return complaintEffect(input, report);
  if (report.kind === 'feedback' || report.kind === 'undetermined' || report.kind === 'auto_reply')
    return reportEffect(input, report);
  if (report.kind !== 'bounce') return { skipped: `a ${report.kind.replace('_', ' ')} is not a bounce` };

  if (input.mailFrom && input.mailFrom.toLowerCase() === target.to_email.toLowerCase())
    return { skipped: "sent by the message's own recipient: a person writing, not a bounce" };
  const r = chooseRecipient(report.recipients, target.to_email);
  if (!r) return { skipped: 'the report names no recipient that failed or was delayed' };
  const c = r.classification;
  // A sender block is recorded as in the session (categories.ts recordedCategory), flagged
  // sender_block; a relay that gave up on it says `expired`, as txmail's own give-up does.
  const senderBlock = c.senderBlock && c.category !== 'expired';
  const data = {
    // One of BOUNCE_CATEGORIES: messages.category and the log's filter read it (db/event-category.ts).
    category: recordedCategory(c.category, senderBlock, c.enhanced),
    ...(senderBlock ? { sender_block: true } : {}),
    bounce_type: c.type,
    enhanced_code: c.enhanced,
    reason: c.reason,
    diagnostic_code: r.diagnostic ?? null,
    remote_mta: r.remoteMta ?? null,
    reporting_mta: report.reportingMta ?? null,
    // The address we sent to when the report names it (as Final- or Original-Recipient): a mail store's
    // internal name for the mailbox (Final-Recipient: jdoe.4471@mbx03.corp…) is given beside it.
    recipient: reportedAs(r, target.to_email),
    ...(namedOriginal(r, target.to_email) ? { final_recipient: r.recipient } : {}),
    format: report.format,
    inbound_id: input.inboundId,
  };
  if (c.type === 'transient') {
    if (target.status === 'bounced' || target.status === 'failed') {
      return { skipped: `a delay warning for a message that already ${target.status}` };
    }
    return {
      effect: {
        messageId: target.id,
        accountId: target.account_id,
        event: { id: input.newId(), type: 'email.delivery_delayed', data },
        status: undefined,
        suppression: undefined,
      },
    };
  }
  if (target.status === 'bounced') return { skipped: 'the message has already bounced' };
  // From the category alone (bounce/categories.ts `suppresses`): a dead address, never a refusal. Not
  // when the entry is a guess among several that are none of them ours (chooseRecipient): another
  // address's dead mailbox says nothing of ours.
  const suppress =
    suppressesRecipient(c, input.repeatedDisabled) &&
    !guessedAmongSeveral(report.recipients, r, target.to_email);
  return {
    effect: {
      messageId: target.id,
      accountId: target.account_id,
      event: { id: input.newId(), type: 'email.bounced', data },
      status: 'bounced',
      // A bounce; against the list when its category says the address is bad (reputation/counts.ts).
      reputation: { kind: 'bounce', badAddress: countsAgainstReputation(c.category) },
      suppression: suppress
        ? {
            id: input.newId(),
            address: target.to_email.toLowerCase(),
            origin: 'bounce',
            reason: c.reason,
            enhancedCode: c.enhanced,
          }
        : undefined,
    },
  };
}

function complaintEffect(
  input: DecideInput,
  report: Extract<InboundReport, { kind: 'complaint' }>,
): Decision {
  const { target } = input;
  // One complaint per message, except that a spam complaint after an unsubscribe is still recorded
  // (and counted: the unsubscribe was not held against the sender, reputation/counts.ts).
  if (
    target.status === 'complained' &&
    (report.category !== SPAM_COMPLAINT || target.category === SPAM_COMPLAINT)
  )
    return { skipped: 'the message already has a complaint' };
  const by = report.userAgent ?? report.reportedBy;
  const reason =
    report.category === 'unsubscribe'
      ? `the recipient asked to unsubscribe${by ? ` (${by})` : ''}`
      : `the recipient reported the message as ${report.feedbackType === 'abuse' ? 'spam' : report.feedbackType}${by ? ` (${by})` : ''}`;
  return {
    effect: {
      messageId: target.id,
      accountId: target.account_id,
      event: {
        id: input.newId(),
        type: 'email.complained',
        data: {
          category: report.category,
          feedback_type: report.feedbackType,
          format: report.format,
          user_agent: report.userAgent ?? null,
          reported_by: report.reportedBy ?? null,
          source_ip: report.sourceIp ?? null,
          arrival_date: report.arrivalDate ?? null,
          reason,
          inbound_id: input.inboundId,
        },
      },
      // An unsubscribe ends the message's story as a complaint does: no more mail to the address.
      status: 'complained',
      // But only a spam complaint counts against the sender (reputation/counts.ts).
      reputation: { kind: 'complaint', spam: report.category === SPAM_COMPLAINT },
      suppression: {
        id: input.newId(),
        address: target.to_email.toLowerCase(),
        origin: 'complaint',
        reason,
        enhancedCode: null,
      },
    },
  };
}

/**
 * A report that changes nothing but is kept in the message's log: a feedback report that is not a
 * complaint (RFC 6591 auth-failure, RFC 6650 not-spam), an automatic reply (who answered and its
 * subject: an out-of-office may hold a person's details, so not its text), or a notice from the null
 * sender txmail cannot read, with its text (as a remote peer wrote it: capped, control characters
 * replaced). Not a bounce: the status stays, nothing is suppressed.
 */
function reportEffect(
  input: DecideInput,
  report: Extract<InboundReport, { kind: 'feedback' | 'undetermined' | 'auto_reply' }>,
): Decision {
  const data =
    report.kind === 'auto_reply'
      ? {
          kind: 'auto_reply',
          category: 'auto_reply',
          reason: `an automatic reply came back (${report.reason}): the message was delivered`,
          from: report.from === undefined ? null : peerText(report.from, MAX_LINE),
          subject: peerText(report.subject, MAX_LINE),
          inbound_id: input.inboundId,
        }
      : report.kind === 'feedback'
        ? {
            kind: 'feedback',
            feedback_type: report.feedbackType,
            auth_failure: report.authFailure ?? null,
            format: report.format,
            user_agent: report.userAgent ?? null,
            reported_by: report.reportedBy ?? null,
            source_ip: report.sourceIp ?? null,
            arrival_date: report.arrivalDate ?? null,
            reason: feedbackReason(report),
            inbound_id: input.inboundId,
          }
        : {
            kind: 'undetermined',
            category: 'undetermined',
            reason: report.reason,
            from: report.from ?? null,
            subject: peerText(report.subject, MAX_LINE),
            text: peerText(report.text, MAX_NOTICE_TEXT),
            inbound_id: input.inboundId,
          };
  return {
    effect: {
      messageId: input.target.id,
      accountId: input.target.account_id,
      event: { id: input.newId(), type: 'email.report_received', data },
      status: undefined,
      suppression: undefined,
    },
  };
}

function feedbackReason(report: Extract<InboundReport, { kind: 'feedback' }>): string {
  switch (report.feedbackType) {
    case 'not-spam':
      return 'the recipient marked the message as not spam (RFC 6650)';
    case 'auth-failure':
      return `the receiver reports that the message failed authentication${report.authFailure ? ` (${report.authFailure})` : ''} (RFC 6591)`;
    case '':
      return 'a feedback report that names no feedback type';
    default:
      return `a feedback report of type "${report.feedbackType}", which is not a complaint`;
  }
}

/**
 * Whether `chosen` is not ours by either address and the report names more than one address: a list or
 * alias expanded without Original-Recipient fields, or a notice listing other people's failures.
 * A single other address is a forwarder's rewrite of ours, and stands for it.
 */
function guessedAmongSeveral(
  recipients: BouncedRecipient[],
  chosen: BouncedRecipient,
  toEmail: string,
): boolean {
  const to = toEmail.toLowerCase();
  if (chosen.recipient === to || chosen.originalRecipient === to || chosen.recipient === undefined)
    return false;
  return new Set(recipients.map((x) => x.recipient).filter((a) => a !== undefined)).size > 1;
}

/** Whether the entry is ours by its Original-Recipient while its Final-Recipient is another address. */
function namedOriginal(r: BouncedRecipient, toEmail: string): boolean {
  const to = toEmail.toLowerCase();
  return r.recipient !== undefined && r.recipient !== to && r.originalRecipient === to;
}

/** The event's recipient: ours when the entry names it, else the address the report gives (a forwarder's). */
function reportedAs(r: BouncedRecipient, toEmail: string): string {
  if (namedOriginal(r, toEmail)) return toEmail.toLowerCase();
  return r.recipient ?? toEmail;
}

/**
 * The report's entry for this message's recipient. A message has one recipient, so a report about
 * several (a forwarder's expansion, an MTA batching) is narrowed to the one whose address matches (its
 * Final-Recipient before another's Original-Recipient); when none matches (forwarding rewrote it), the
 * first failure, else the first delay.
 */
export function chooseRecipient(
  recipients: BouncedRecipient[],
  toEmail: string,
): BouncedRecipient | undefined {
  const relevant = recipients.filter(
    (r) => r.action === undefined || r.action === 'failed' || r.action === 'delayed',
  );
  const to = toEmail.toLowerCase();
  // Its own entry first: an alias's expansion names our address as the Original-Recipient of each
  // target's entry too, and a target's "user unknown" is not our recipient's.
  const mine =
    recipients.find((r) => r.recipient === to) ?? recipients.find((r) => r.originalRecipient === to);
  if (mine) return relevant.includes(mine) ? mine : undefined;
  return (
    relevant.find(
      (r) => r.action === 'failed' || (r.action === undefined && r.classification.type !== 'transient'),
    ) ?? relevant[0]
  );
}
