// What a message sent to the return path is: a delivery status notification (RFC 3464), a plain-text
// bounce, a complaint (RFC 5965 ARF), an automatic reply, or none of these. Pure: bytes in, facts out
// (no look-ups); matching it to a message is the inbound processor's job.
//
// Everything in the message is the sender's to choose, and fbl@ takes mail from anyone: every text is
// cut to size before a pattern runs on it (text-limits.ts), so parsing costs time linear in the
// message's size. The inbound processor runs this on a thread with a time budget all the same.
import { simpleParser, type Attachment, type ParsedMail } from 'mailparser';
import { angleAddress } from './address-scan.js';
import { replaceBareCrs } from './bare-cr.js';
import { autoReplyReason, type HeaderLookup } from './auto-reply.js';
import { classifyBounce, type BounceClass } from './classify-bounce.js';
import { parsePlainBounce } from './plain-bounce.js';
import { addressField, field, parseFieldGroups, typedText } from './report-fields.js';
import { cap, headerValue, MAX_ORIGINAL_HEADERS, MAX_TEXT } from './text-limits.js';

export interface BouncedRecipient {
  /** RFC 3464 §2.3.2 Final-Recipient (or the address a plain bounce names). */
  recipient: string | undefined;
  originalRecipient: string | undefined;
  action: string | undefined;
  status: string | undefined;
  diagnostic: string | undefined;
  remoteMta: string | undefined;
  classification: BounceClass;
}

/** What the returned original message (or its headers) says about itself. */
export interface OriginalRefs {
  /** Message-ID without angle brackets. */
  messageId: string | undefined;
  /** Every VERP-looking address (b+…@…) in the original headers (Return-Path, envelope copies). */
  verpAddresses: string[];
  /** The original To address, when not redacted. */
  to: string | undefined;
}

export type InboundReport =
  | {
      kind: 'bounce';
      format: 'dsn' | 'plain';
      reportingMta: string | undefined;
      recipients: BouncedRecipient[];
      original: OriginalRefs;
    }
  | {
      kind: 'complaint';
      /** RFC 5965 §3.1 Feedback-Type: abuse, fraud, virus, other. */
      feedbackType: string;
      userAgent: string | undefined;
      sourceIp: string | undefined;
      arrivalDate: string | undefined;
      originalRcptTo: string | undefined;
      original: OriginalRefs;
    }
  | { kind: 'auto_reply'; reason: string }
  | { kind: 'ignored'; reason: string };

export interface Envelope {
  /** MAIL FROM, '' for the null sender. */
  mailFrom: string;
}

// RFC 5965 §3.1 feedback types that report a recipient's complaint. not-spam (RFC 6650) and
// auth-failure (RFC 6591) are reports of another kind.
const COMPLAINT_TYPES = new Set(['abuse', 'fraud', 'virus', 'other']);
const VERP = /b\+[0-9a-f]{48}@[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?/gi;
// Recipients read from one report. We send each message to one recipient; a relay reporting on a batch
// reports one transaction's worth, and RFC 5321 §4.5.3.1.8 asks a server to take 100 in one.
const MAX_RECIPIENTS = 100;

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

/** Parses one received message. Never throws on malformed input: unparseable mail is `ignored`. */
export async function parseReport(received: Buffer, envelope: Envelope): Promise<InboundReport> {
  const raw = replaceBareCrs(received);
  let mail: ParsedMail;
  try {
    mail = await simpleParser(raw, {
      keepDeliveryStatus: true,
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
  const attachments = mail.attachments ?? [];
  const part = (type: string) => attachments.find((a) => a.contentType?.toLowerCase() === type);
  const text = cap(mail.text ?? '', MAX_TEXT);
  const original = originalRefs(raw, attachments, text);

  const feedback = part('message/feedback-report');
  if (feedback) return complaint(feedback.content.toString('utf8'), original);

  const status = part('message/delivery-status') ?? part('message/global-delivery-status');
  if (status) {
    const dsn = deliveryStatus(status.content.toString('utf8'));
    if (dsn) return { kind: 'bounce', format: 'dsn', ...dsn, original };
  }

  const plain = parsePlainBounce(header, subject, text, envelope.mailFrom);
  if (plain) {
    const classification = classifyBounce({
      hint: plain.hint,
      diagnostic: plain.diagnostic ?? plain.text,
    });
    const recipients = (
      plain.recipients.length ? plain.recipients.slice(0, MAX_RECIPIENTS) : [undefined]
    ).map((recipient): BouncedRecipient => ({
      recipient,
      originalRecipient: undefined,
      action: undefined,
      status: undefined,
      diagnostic: plain.diagnostic,
      remoteMta: undefined,
      classification,
    }));
    return { kind: 'bounce', format: 'plain', reportingMta: undefined, recipients, original };
  }

  const auto = autoReplyReason(header, subject);
  if (auto) return { kind: 'auto_reply', reason: auto };
  return { kind: 'ignored', reason: 'neither a bounce, a complaint nor an automatic reply' };
}

/** RFC 3464 §2.1: one per-message group, then one group per recipient. */
function deliveryStatus(
  text: string,
): { reportingMta: string | undefined; recipients: BouncedRecipient[] } | undefined {
  const groups = parseFieldGroups(text);
  const perMessage = groups.find((g) => g.has('reporting-mta'));
  const recipients = groups
    .filter((g) => g.has('final-recipient') || g.has('action') || g.has('status'))
    .slice(0, MAX_RECIPIENTS)
    .map((g): BouncedRecipient => {
      const action = field(g, 'action')?.toLowerCase().split(/[\s(]/)[0];
      const status = field(g, 'status');
      const diagnostic = typedText(field(g, 'diagnostic-code'));
      return {
        recipient: addressField(field(g, 'final-recipient'))?.toLowerCase(),
        originalRecipient: addressField(field(g, 'original-recipient'))?.toLowerCase(),
        action,
        status,
        diagnostic,
        remoteMta: typedText(field(g, 'remote-mta')),
        classification: classifyBounce({ action, status, diagnostic }),
      };
    });
  if (recipients.length === 0) return undefined;
  return { reportingMta: typedText(perMessage && field(perMessage, 'reporting-mta')), recipients };
}

/** RFC 5965 §3.1: the machine-readable part of an abuse report. */
function complaint(text: string, original: OriginalRefs): InboundReport {
  const g = parseFieldGroups(text)[0] ?? new Map<string, string[]>();
  const feedbackType = field(g, 'feedback-type')?.toLowerCase() ?? '';
  if (!COMPLAINT_TYPES.has(feedbackType)) {
    return { kind: 'ignored', reason: `feedback report of type "${feedbackType}", not a complaint` };
  }
  return {
    kind: 'complaint',
    feedbackType,
    userAgent: field(g, 'user-agent'),
    sourceIp: field(g, 'source-ip'),
    arrivalDate: field(g, 'arrival-date') ?? field(g, 'received-date'),
    originalRcptTo: addressField(field(g, 'original-rcpt-to'))?.toLowerCase(),
    // The original envelope sender is our VERP address when the reporter kept it.
    original: {
      ...original,
      verpAddresses: [
        ...new Set([
          ...original.verpAddresses,
          ...(field(g, 'original-mail-from')?.match(VERP) ?? []).map((a) => a.toLowerCase()),
        ]),
      ],
    },
  };
}

/**
 * The returned original's headers: from a message/rfc822 or text/rfc822-headers part (RFC 3462 §3,
 * RFC 5965 §2), else the copy quoted in a plain-text bounce. The part is read from the raw message:
 * mailparser renders an inline message/rfc822 as a summary without its Message-ID. RFC 2046 §5.2.1
 * allows message/rfc822 no transfer encoding beyond 8bit, so the raw text is the part.
 */
function originalRefs(raw: Buffer, attachments: Attachment[], text: string): OriginalRefs {
  const fromRaw = rawOriginalHeaders(raw.toString('latin1'));
  const refs = fromRaw === undefined ? undefined : refsFromHeaders(fromRaw);
  if (refs && (refs.messageId || refs.verpAddresses.length > 0)) return refs;
  // A part sent with a transfer encoding anyway (it happens): mailparser has decoded it.
  const part = attachments.find((a) => ORIGINAL_TYPES.has(a.contentType?.toLowerCase() ?? ''));
  if (part)
    return refsFromHeaders(headerBlock(part.content.subarray(0, MAX_ORIGINAL_HEADERS).toString('utf8')));
  return refs ?? refsFromHeaders(text);
}

const ORIGINAL_TYPES = new Set([
  'message/rfc822',
  'text/rfc822-headers',
  'message/global',
  'message/global-headers',
]);

/** `headerText` is cut to MAX_ORIGINAL_HEADERS here; its lines and values to 998 by parseFieldGroups. */
function refsFromHeaders(fullHeaderText: string): OriginalRefs {
  const headerText = cap(fullHeaderText, MAX_ORIGINAL_HEADERS);
  const headers = parseFieldGroups(headerText).reduce((all, g) => {
    for (const [k, v] of g) if (!all.has(k)) all.set(k, v);
    return all;
  }, new Map<string, string[]>());
  const messageId = angleAddress(field(headers, 'message-id') ?? '', false);
  const toHeader = field(headers, 'to');
  const to = addressField(angleAddress(toHeader ?? '') ?? toHeader);
  return {
    messageId,
    verpAddresses: [...new Set((headerText.match(VERP) ?? []).map((a) => a.toLowerCase()))],
    to: to?.toLowerCase(),
  };
}

const ORIGINAL_PART =
  /^content-type:[ \t]*(?:message\/rfc822|text\/rfc822-headers|message\/global|message\/global-headers)\b/im;

function rawOriginalHeaders(raw: string): string | undefined {
  const start = ORIGINAL_PART.exec(raw);
  if (!start) return undefined;
  // Skip the rest of the part's own header block, then take the original's header block.
  const afterPartHeaders = /\r?\n\r?\n/.exec(raw.slice(start.index));
  if (!afterPartHeaders) return undefined;
  // Cut before looking for its end: a part that never ends is read no further than this.
  const body = raw
    .slice(start.index + afterPartHeaders.index + afterPartHeaders[0].length)
    .slice(0, MAX_ORIGINAL_HEADERS);
  const end = /\r?\n\r?\n|\r?\n--/.exec(body);
  return end ? body.slice(0, end.index) : body;
}

/** The header block at the start of `text`: up to its first blank line. */
function headerBlock(text: string): string {
  const blank = /\r?\n\r?\n/.exec(text);
  return blank ? text.slice(0, blank.index) : text;
}

function headerLookup(mail: ParsedMail): HeaderLookup {
  const lines = mail.headerLines ?? [];
  return (name) => {
    const line = lines.find((l) => l.key === name)?.line;
    return line === undefined ? undefined : headerValue(line);
  };
}
