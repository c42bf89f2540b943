// What a message sent to the return path (or to fbl@) is, read in the order that tells formats apart:
// a feedback report (RFC 5965 ARF), a delivery status notification (RFC 3464, RFC 6533), an Amazon SES
// notification, a human-readable bounce notice, a feedback loop's forwarded complaint, an automatic
// reply, else, from the null sender, an undetermined notice kept as it came. Pure: bytes in, facts out
// (no look-ups); matching it to a message is the inbound processor's job.
//
// Everything in the message is the sender's to choose, and fbl@ takes mail from anyone: every text is
// cut to size before a pattern runs on it (text-limits.ts), so parsing costs time linear in the
// message's size. The inbound processor runs this on a thread with a time budget all the same.
import { compile } from 'html-to-text';
import { simpleParser, type ParsedMail } from 'mailparser';
import { firstAddress } from './address-scan.js';
import { answersAutomatically, autoReplyReason, responderMark, type HeaderLookup } from './auto-reply.js';
import { replaceBareCrs } from './bare-cr.js';
import { classifyReport } from './reply-intelligence.js';
import { MAX_RECIPIENTS, readDeliveryStatus } from './delivery-status.js';
import { readFeedbackReport } from './feedback-report.js';
import { readForwardedComplaint } from './forwarded-complaint.js';
import type { BouncedRecipient, Envelope, InboundReport } from './inbound-report.js';
import { headerBlock, ORIGINAL_TYPES, originalRefs } from './original-refs.js';
import { readMdnRejection } from './mdn-rejection.js';
import { forwardedByPerson } from './person-forward.js';
import { humanPart, parsePlainBounce } from './plain-bounce.js';
import { field, parseFieldGroups } from './report-fields.js';
import { readSesNotification } from './ses-notification.js';
import { cap, headerValue, MAX_NOTICE_TEXT, MAX_TEXT } from './text-limits.js';

export type {
  BouncedRecipient,
  ComplaintCategory,
  Envelope,
  InboundReport,
  OriginalRefs,
} from './inbound-report.js';

// mailparser's own limits, stated here because they bound what a hostile message costs it (its
// parsing is linear in the message; test/inbound-linear-time.test.ts checks the shapes that matter).
// A report has a handful of parts (RFC 6522 §3: a text, the report, the original); a returned original
// with attachments a few dozen more.
const MAX_MIME_PARTS = 500;
// A part's header block: real ones (a long Received chain, DKIM and ARC seals) stay under 32 KiB.
const MAX_HEADER_BLOCK = 256 * 1024;
// Converting HTML to text costs about a second per MiB of small elements; a report's HTML notice is a
// few KiB, and only its first MAX_TEXT characters of text are read anyway.
const MAX_HTML_TO_TEXT = 256 * 1024;
// Delivery-status fields written into a text part (a report whose status part is labelled text/plain).
const DSN_FIELDS = /^final-recipient:/im;
// Feedback-report fields written into a text part.
const FEEDBACK_FIELDS = /^feedback-type:/im;
// html-to-text walks the tree by recursion: a notice nests a few levels deep, a hostile one thousands.
const MAX_HTML_DEPTH = 64;
// Compiled once: compiling the selectors costs more than converting a notice.
const htmlToText = compile({
  wordwrap: false,
  limits: { maxDepth: MAX_HTML_DEPTH, maxInputLength: MAX_HTML_TO_TEXT },
  selectors: [
    { selector: 'img', format: 'skip' },
    { selector: 'a', options: { ignoreHref: true } },
  ],
});
// Reports forwarded whole (a relay's "the bounce we received is attached"): how many attached messages
// are looked into, one level deep.
const MAX_FORWARDED = 3;
// What says an attached message is a mail system's notice: the null sender in its Return-Path, Exim's
// X-Failed-Recipients, a mail system in its From.
const NULL_RETURN_PATH = /^return-path:[ \t]*<>/im;
const FAILED_RECIPIENTS = /^x-failed-recipients:/im;
const FROM_LINE = /^from:[^\r\n]*/im;
const MAIL_SYSTEM = /mailer-?daemon|postmaster|mail delivery|delivery subsystem/i;
// Our own message returned: the VERP address in its Return-Path.
const OUR_RETURN_PATH = /^return-path:[ \t]*<?b\+[0-9a-f]{48}@/im;

/** Parses one received message. Never throws on malformed input: unparseable mail is `ignored`. */
export async function parseReport(received: Buffer, envelope: Envelope): Promise<InboundReport> {
  return parseAt(received, envelope, true);
}

async function parseAt(received: Buffer, envelope: Envelope, outer: boolean): Promise<InboundReport> {
  const raw = replaceBareCrs(received);
  let mail: ParsedMail;
  try {
    mail = await simpleParser(raw, {
      keepDeliveryStatus: true,
      // A returned or forwarded original stays an attachment, never rendered into the text: its
      // words (a customer's "could not be delivered", a spammer's anything) are not the report's.
      ignoreEmbedded: true,
      skipImageLinks: true,
      skipTextLinks: true,
      skipTextToHtml: true,
      maxChildNodes: MAX_MIME_PARTS,
      maxHeadSize: MAX_HEADER_BLOCK,
      maxHtmlLengthToParse: MAX_HTML_TO_TEXT,
      // Nothing reads the attachments' checksums.
      checksumAlgo: false,
    });
  } catch (err) {
    return { kind: 'ignored', reason: `not a parseable message: ${(err as Error).message}` };
  }
  const header = headerLookup(mail);
  const subject = typeof mail.subject === 'string' ? cap(mail.subject) : '';
  const from = fromAddress(header('from'));
  const attachments = mail.attachments ?? [];
  const part = (type: string) => attachments.find((a) => a.contentType?.toLowerCase() === type);
  // A notice whose only text is HTML inside a multipart (Outlook.com's): mailparser renders HTML to
  // text only for a message that is nothing else.
  const text = cap(mail.text || htmlText(mail.html), MAX_TEXT);
  const original = originalRefs(raw, attachments, text);

  const feedback = part('message/feedback-report');
  if (feedback) return readFeedbackReport(feedback.content.toString('utf8'), original, from);

  // A person's forward of a notice about their own message (person-forward.ts): no report of ours.
  const personForward = forwardedByPerson(header, subject, envelope.mailFrom);
  const status = part('message/delivery-status') ?? part('message/global-delivery-status');
  const notice = humanPart(text);
  const dsn =
    (status && !personForward && readDeliveryStatus(status.content.toString('utf8'), notice)) ??
    (DSN_FIELDS.test(text) && !personForward ? readDeliveryStatus(text, notice) : undefined);
  if (dsn) return { kind: 'bounce', format: 'dsn', ...dsn, original };

  if (FEEDBACK_FIELDS.test(text)) return readFeedbackReport(text, original, from);

  // RFC 8098: a read receipt (or a notice that the message was deleted unread) says it was delivered.
  const disposition =
    part('message/disposition-notification') ?? part('message/global-disposition-notification');
  if (disposition) {
    const fields = disposition.content.toString('utf8');
    // A refusal sent as an MDN (RFC 5429): a bounce, read as a notice whose reason is the refusal's.
    const rejection = readMdnRejection(fields, header, subject, notice);
    if (rejection) {
      const recipient: BouncedRecipient = {
        recipient: rejection.recipient,
        originalRecipient: undefined,
        action: 'failed',
        status: undefined,
        diagnostic: rejection.reason,
        remoteMta: undefined,
        classification: classifyRejection(rejection.reason, notice),
      };
      return { kind: 'bounce', format: 'plain', reportingMta: undefined, recipients: [recipient], original };
    }
    return { kind: 'auto_reply', reason: dispositionReason(fields), subject, from };
  }

  // SNS puts the notification in the body; a relay may attach it as application/json.
  const json = part('application/json');
  const ses =
    readSesNotification(text, from) ??
    (json ? readSesNotification(cap(json.content.toString('utf8'), MAX_TEXT), from) : undefined);
  if (ses) return ses;

  // The report attached to this message (only the outer one's are read), parsed once however many of
  // the steps below ask for it: each attached message is parsed whole.
  let attached: Promise<InboundReport | undefined> | undefined;
  const attachedReport = () =>
    outer ? (attached ??= forwardedReport(attachments, envelope, personForward)) : Promise.resolve(undefined);

  const plain = parsePlainBounce(header, subject, text, envelope.mailFrom);
  // A relay's notice that says nothing itself of why ("returned by the recipient's mail system, its
  // report is attached"): the attached report is the evidence.
  if (plain && plain.diagnostic === undefined) {
    const inner = await attachedReport();
    if (inner?.kind === 'bounce') return inner;
  }
  if (plain) {
    // A notice that is not a delay warning returns the message: delivery has stopped (RFC 3464's
    // `failed`), whatever code the remote server's last reply had (qmail's "This is a permanent error;
    // I've given up" after a 4.4.3).
    const action = plain.hint;
    const noticeText = cap(plain.text, MAX_NOTICE_TEXT);
    const classify = (diagnostic: string | undefined, stage?: string) =>
      classifyReport({ action, hint: plain.hint, diagnostic, source: 'plain', text: noticeText, stage });
    const classification = classify(plain.diagnostic, plain.stage);
    const recipients = (
      plain.recipients.length ? plain.recipients.slice(0, MAX_RECIPIENTS) : [undefined]
    ).map((recipient): BouncedRecipient => {
      // A recipient with a reply of its own in the notice (Exim lists each failed address with its own).
      const own = recipient === undefined ? undefined : plain.diagnostics.get(recipient);
      return {
        recipient,
        originalRecipient: undefined,
        action,
        status: undefined,
        diagnostic: own ?? plain.diagnostic,
        remoteMta: undefined,
        // Its own reply (or the notice's, when that is its own), and the command its own lines say that
        // reply answered; the notice's classification when both are the notice's.
        classification:
          own === undefined && (recipient === undefined || !plain.stages.has(recipient))
            ? classification
            : classify(own ?? plain.diagnostic, plain.stages.get(recipient!) ?? plain.stage),
      };
    });
    return { kind: 'bounce', format: 'plain', reportingMta: undefined, recipients, original };
  }

  // An abuse desk forwarding a whole ARF report ("FW: Abuse report"): the report, not a complaint about
  // its own headers.
  if (attachments.some(isAttachedFeedbackReport)) {
    const inner = await attachedReport();
    if (inner) return inner;
  }
  const forwarded = readForwardedComplaint({
    subject,
    text: notice,
    from,
    original,
    mailFrom: envelope.mailFrom,
    automatic: answersAutomatically(header, subject),
  });
  if (forwarded) return forwarded;

  // A relay passing on the bounce it got, attached, marked as automatic as any notice is: the
  // attached report, before the marks make it an automatic reply.
  const relayed = await attachedReport();
  if (relayed) return relayed;
  // A mail system's notice, from the null sender, returning our message in words txmail does not read
  // (a language it knows no words of): kept as undetermined. Postfix and Exim mark every notice
  // Auto-Submitted: auto-replied, so only a mark no mail system writes makes it an automatic reply (a
  // small company's postmaster@ may well be a person with an out-of-office).
  const systemReturns =
    envelope.mailFrom === '' &&
    MAIL_SYSTEM.test(cap(header('from') ?? '')) &&
    attachments.some((a) => ORIGINAL_TYPES.has(a.contentType?.toLowerCase() ?? ''));
  const auto = systemReturns ? responderMark(header, subject) : autoReplyReason(header, subject);
  if (auto) return { kind: 'auto_reply', reason: auto, subject, from };
  if (envelope.mailFrom === '') {
    return {
      kind: 'undetermined',
      reason: systemReturns
        ? 'a mail system returned the message with a notice txmail does not read'
        : 'a notice from the null sender that is no bounce, complaint or automatic reply txmail recognises',
      subject,
      from,
      text: cap(notice, MAX_NOTICE_TEXT),
      original,
    };
  }
  return { kind: 'ignored', reason: 'neither a bounce, a complaint nor an automatic reply' };
}

/**
 * A bounce or feedback report forwarded whole as an attachment (a relay or an ESP passing on the
 * bounce it received, a mailbox forwarding a report): the attached message read as if it had come
 * itself. A plain-text notice counts only when it shows it came from a mail system; a returned original
 * of ours never, so its words (which may say anything) are not read as a report.
 */
async function forwardedReport(
  attachments: ParsedMail['attachments'],
  envelope: Envelope,
  personForward: boolean,
): Promise<InboundReport | undefined> {
  const attached = attachments
    .filter((a) => a.contentType?.toLowerCase() === 'message/rfc822')
    .slice(0, MAX_FORWARDED);
  for (const a of attached) {
    const headers = headerBlock(a.content.subarray(0, MAX_HEADER_BLOCK).toString('latin1'));
    if (OUR_RETURN_PATH.test(headers)) continue;
    const fromNull = NULL_RETURN_PATH.test(headers);
    const fromSystem =
      fromNull ||
      FAILED_RECIPIENTS.test(headers) ||
      MAIL_SYSTEM.test(cap(FROM_LINE.exec(headers)?.[0] ?? ''));
    const inner = await parseAt(a.content, { ...envelope, mailFrom: fromNull ? '' : 'forwarded' }, false);
    // Not a bounce a person forwards (their own message's): an abuse desk's forwarded complaint is one.
    if (inner.kind === 'bounce' && !personForward && (fromSystem || inner.format === 'dsn')) return inner;
    if (inner.kind === 'complaint' || inner.kind === 'feedback') return inner;
  }
  return undefined;
}

const FEEDBACK_REPORT_TYPE = /message\/feedback-report/i;

/** An attached message that is itself a feedback report (its MIME structure names the type). */
function isAttachedFeedbackReport(a: ParsedMail['attachments'][number]): boolean {
  return (
    a.contentType?.toLowerCase() === 'message/rfc822' &&
    FEEDBACK_REPORT_TYPE.test(a.content.subarray(0, MAX_HEADER_BLOCK).toString('latin1'))
  );
}

/** The text of an HTML notice (cut to MAX_HTML_TO_TEXT characters); '' when it cannot be read. */
function htmlText(html: string | false | undefined): string {
  if (!html) return '';
  try {
    return htmlToText(cap(html, MAX_HTML_TO_TEXT));
  } catch {
    return '';
  }
}

/**
 * What a refusal's reason means: its words, else a refusal by the recipient's own rules, a refusal of
 * policy (5.7.1, "delivery not authorized, message refused", RFC 3463 §3.8).
 */
function classifyRejection(reason: string, notice: string): BouncedRecipient['classification'] {
  const evidence = {
    action: 'failed',
    diagnostic: reason,
    source: 'plain' as const,
    text: cap(notice, MAX_NOTICE_TEXT),
  };
  const verdict = classifyReport(evidence);
  return verdict.category === 'undetermined' ? classifyReport({ ...evidence, status: '5.7.1' }) : verdict;
}

/** RFC 8098 §3.2.6: `Disposition: manual-action/MDN-sent-manually; displayed` → its disposition type. */
function dispositionReason(fields: string): string {
  const group = parseFieldGroups(fields).find((g) => g.has('disposition'));
  const value = group && field(group, 'disposition');
  const type = value
    ?.slice(value.indexOf(';') + 1)
    .trim()
    .split(/[\s/]/)[0];
  return `a message disposition notification (RFC 8098)${type ? `: ${type}` : ''}`;
}

function headerLookup(mail: ParsedMail): HeaderLookup {
  const lines = mail.headerLines ?? [];
  return (name) => {
    const line = lines.find((l) => l.key === name)?.line;
    return line === undefined ? undefined : headerValue(line);
  };
}

/** The address in a From header (`Mail Delivery System <MAILER-DAEMON@x>` → `mailer-daemon@x`). */
function fromAddress(value: string | undefined): string | undefined {
  return value === undefined ? undefined : firstAddress(value)?.toLowerCase();
}
