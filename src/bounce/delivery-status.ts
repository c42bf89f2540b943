// The machine-readable part of a delivery status notification: RFC 3464 message/delivery-status and
// RFC 6533 message/global-delivery-status, read as reporting MTAs write them, which is not always as
// the RFCs say: actions such as `error`, `failure`, `Failed (bad destination mailbox address)` or
// upper case, a Status with words around the code, Original-Recipient or Sendmail's
// X-Actual-Recipient in place of Final-Recipient.
import { classifyReport, stageOf } from './reply-intelligence.js';
import { findEnhancedCode } from './enhanced-code.js';
import type { BouncedRecipient } from './inbound-report.js';
import { addressField, field, parseFieldGroups, typedText, type FieldGroup } from './report-fields.js';
import { entryDiagnostic } from './notice-diagnostic.js';
import { entryStages, noticeRecipients, type NoticeRecipients } from './notice-recipients.js';
import { cap, cappedLines, MAX_NOTICE_TEXT } from './text-limits.js';

// Recipients read from one report. We send each message to one recipient; a relay reporting on a batch
// reports one transaction's worth: RFC 5321 §4.5.3.1.8 asks a server to take at least 100 in one, and
// Postfix takes 1,000 (smtpd_recipient_limit). A report about a list expanded from our recipient may
// name ours anywhere (a 200-recipient DSN named ours 194th, and the first 100 were read), so as many.
export const MAX_RECIPIENTS = 1000;

// What reporting MTAs write in Action beside RFC 3464 §2.3.3's five words, by what it means.
const ACTIONS: Record<string, string> = {
  failed: 'failed',
  failure: 'failed',
  fail: 'failed',
  error: 'failed',
  errors: 'failed',
  bounced: 'failed',
  bounce: 'failed',
  rejected: 'failed',
  undeliverable: 'failed',
  'permanent-failure': 'failed',
  delayed: 'delayed',
  delay: 'delayed',
  deferred: 'delayed',
  retrying: 'delayed',
  'transient-failure': 'delayed',
  delivered: 'delivered',
  relayed: 'relayed',
  expanded: 'expanded',
};

/**
 * An Action field's first word, lower case, as one of RFC 3464's words when it is a known other
 * spelling (`Failure`, `error`, `failed (bad destination…)` → `failed`; `deferred` → `delayed`).
 * Any other word is kept as written.
 */
export function readAction(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const word = value
    .trim()
    .toLowerCase()
    .split(/[\s(;:,]/)[0];
  if (!word) return undefined;
  return ACTIONS[word] ?? word;
}

/** A Status field's enhanced code wherever it sits in the field (`5.1.1 (user unknown)`, `550 5.1.1`). */
export function readStatus(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return findEnhancedCode(value) ?? (value.trim() || undefined);
}

export interface DeliveryStatus {
  reportingMta: string | undefined;
  recipients: BouncedRecipient[];
}

/**
 * RFC 3464 §2.1: one per-message group, then one group per recipient. Undefined when no group names a
 * recipient, an action or a status. `notice` is the report's human-readable part, given to the
 * classifier for a recipient whose group has no Diagnostic-Code, when the report is about one recipient.
 */
export function readDeliveryStatus(text: string, notice: string): DeliveryStatus | undefined {
  const groups = parseFieldGroups(text);
  const perMessage = groups.find((g) => g.has('reporting-mta'));
  const recipientGroups = groups
    .filter((g) => g.has('final-recipient') || g.has('action') || g.has('status'))
    .slice(0, MAX_RECIPIENTS);
  // A notice about several recipients may say of one what is true of another ("user unknown"): its
  // words are read only for a report about one recipient, or they could suppress the wrong address.
  const words = recipientGroups.length === 1 ? cap(notice, MAX_NOTICE_TEXT) : '';
  // The command each recipient's reply answered, from its own paragraph of the notice (Postfix gives
  // each its own: "<jane@x>: host … said: … (in reply to RCPT TO command)"); for a report about one
  // recipient, from anywhere in the notice.
  const entries = noticeRecipients(cappedLines(notice)).entries;
  const stages = entryStages(entries);
  const own = entryReasons(entries);
  const recipients = recipientGroups.map((g) => recipientOf(g, words, stages, own));
  if (recipients.length === 0) return undefined;
  return { reportingMta: typedText(perMessage && field(perMessage, 'reporting-mta')), recipients };
}

// An address of another type encapsulated in SMTP by Exchange (IMCEAEX-, IMCEAX400-, IMCEANOTES-…).
const ENCAPSULATED = /^imcea[a-z0-9]{1,16}-/i;

/**
 * What the notice says under each recipient it lists, where it says something (Exim's "  jane@x" and
 * the reason on the next line): a DSN without a Diagnostic-Code gives only this. Its own words, not
 * the notice's prose around them, which may be a hosting panel's sentence for every failure ("the
 * account or domain may not exist, they may be blacklisted, …").
 */
function entryReasons(entries: NoticeRecipients['entries']): Map<string, string> {
  const reasons = new Map<string, string>();
  for (const entry of entries) {
    const reason = entryDiagnostic(entry.lines);
    if (reason !== undefined) reasons.set(entry.address, reason);
  }
  return reasons;
}

function recipientOf(
  g: FieldGroup,
  notice: string,
  stages: Map<string, string>,
  reasons: Map<string, string>,
): BouncedRecipient {
  const action = readAction(field(g, 'action'));
  const status = readStatus(field(g, 'status'));
  const remoteMta = typedText(field(g, 'remote-mta'));
  const originalRecipient = dsnAddress(field(g, 'original-recipient'));
  const final = dsnAddress(field(g, 'final-recipient') ?? field(g, 'x-actual-recipient'));
  // Exchange names the mailbox it resolved the recipient to by its internal X.500 address, wrapped as
  // "IMCEAEX-_O=…@domain" (IMCEA<type>-: an address of another type carried as SMTP): no address
  // anyone sent to. The Original-Recipient, when given, is.
  const recipient =
    final !== undefined && ENCAPSULATED.test(final)
      ? (originalRecipient ?? final)
      : (final ?? originalRecipient);
  const diagnostic =
    typedText(field(g, 'diagnostic-code')) ??
    (recipient === undefined ? undefined : reasons.get(recipient.toLowerCase()));
  return {
    recipient,
    originalRecipient,
    action,
    status,
    diagnostic,
    remoteMta,
    classification: classifyReport({
      action,
      status,
      diagnostic,
      remoteMta,
      source: 'dsn',
      text: diagnostic === undefined && notice.trim() !== '' ? notice : undefined,
      stage:
        (recipient === undefined ? undefined : stages.get(recipient)) ??
        (notice === '' ? undefined : stageOf(notice)),
    }),
  };
}

/**
 * An address-type field in lower case. RFC 6533 §3's `utf-8` type writes what it cannot say in UTF-8
 * as `\x{HEX}` (utf-8-addr-xtext); those are decoded.
 */
export function dsnAddress(value: string | undefined): string | undefined {
  const address = addressField(value);
  if (address === undefined) return undefined;
  const decoded = address.includes('\\x{') ? decodeUtf8AddrXtext(address) : address;
  return decoded.toLowerCase();
}

/** `\x{E9}` → `é` (RFC 6533 §3 EmbeddedUnicodeChar); anything malformed is left as written. */
function decodeUtf8AddrXtext(text: string): string {
  let out = '';
  // The text before `copied` is in `out`. What is left as written is copied only when a decoded
  // character follows it, in one piece: a string built from a piece per malformed `\x{` held a third
  // of a million live pieces for 1 MiB of them, and the collector's work grew faster than the input.
  let copied = 0;
  for (let at = text.indexOf('\\x{'); at >= 0;) {
    // At most six hex digits (RFC 6533 §3): look no further for the brace, or a run of `\x{` without
    // one would be scanned to its end once per `\x{`.
    const brace = text.slice(at + 3, at + 10).indexOf('}');
    const close = brace < 0 ? -1 : at + 3 + brace;
    const hex = brace > 0 ? text.slice(at + 3, close) : '';
    const code = /^[0-9A-Fa-f]+$/.test(hex) ? Number.parseInt(hex, 16) : NaN;
    if (Number.isNaN(code) || code > 0x10ffff) {
      at = text.indexOf('\\x{', at + 3);
      continue;
    }
    out += text.slice(copied, at) + String.fromCodePoint(code);
    copied = close + 1;
    at = text.indexOf('\\x{', copied);
  }
  return out + text.slice(copied);
}
