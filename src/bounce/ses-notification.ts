// Amazon SES bounce, complaint and delivery-delay notifications, as SES mails them through an Amazon SNS
// email subscription: the notification's JSON as the body (SNS `email`, then SNS's footer), or inside
// SNS's own JSON envelope as its `Message` string (SNS `email-json`). For operators who relay through
// SES (TXMAIL_RELAY_URL) and subscribe fbl@ to the topic. SES keeps our envelope sender, the VERP
// address, as `mail.source`, and our Message-ID among `mail.headers`: that is how they are matched.
//
// What the notification says is read as evidence (the SES bounce type and sub-type, each recipient's
// action, status and diagnostic); classifyReport decides what it means, as for any other report.
import { angleAddress } from './address-scan.js';
import { classifyReport } from './reply-intelligence.js';
import { MAX_RECIPIENTS, readAction, readStatus } from './delivery-status.js';
import { feedbackReport } from './feedback-report.js';
import type { BouncedRecipient, InboundReport, OriginalRefs } from './inbound-report.js';
import { verpAddressesIn } from './original-refs.js';
import { addressField, typedText } from './report-fields.js';
import { cap, MAX_ORIGINAL_HEADERS } from './text-limits.js';

type Json = Record<string, unknown>;

/** The SES notification in `text` (JSON, perhaps followed by SNS's footer), or undefined. */
export function readSesNotification(text: string, reportedBy: string | undefined): InboundReport | undefined {
  let notification = jsonObjectIn(text);
  if (!notification) return undefined;
  // SNS email-json: the SES notification is the envelope's Message, itself JSON.
  if (notification.Type === 'Notification' && typeof notification.Message === 'string') {
    notification = jsonObjectIn(notification.Message);
    if (!notification) return undefined;
  }
  // Notifications say notificationType; SES event publishing says eventType.
  const type = str(notification.notificationType) ?? str(notification.eventType);
  const original = originalOf(obj(notification.mail));
  switch (type) {
    case 'Bounce':
      return bounce(obj(notification.bounce), original);
    case 'DeliveryDelay':
      return delay(obj(notification.deliveryDelay), original);
    case 'Complaint':
      return complaint(obj(notification.complaint), original, reportedBy);
    default:
      return undefined;
  }
}

function bounce(b: Json, original: OriginalRefs): InboundReport {
  const reportedType = [str(b.bounceType), str(b.bounceSubType)].filter(Boolean).join('/') || undefined;
  const recipients = arr(b.bouncedRecipients)
    .slice(0, MAX_RECIPIENTS)
    .map((r) => {
      const o = obj(r);
      // SES sends a bounce notification only once it has stopped trying: each recipient failed.
      return sesRecipient(o, readAction(str(o.action)) ?? 'failed', reportedType);
    });
  return {
    kind: 'bounce',
    format: 'ses',
    reportingMta: typedText(str(b.reportingMTA)),
    recipients: recipients.length ? recipients : [sesRecipient({}, 'failed', reportedType)],
    original,
  };
}

function delay(d: Json, original: OriginalRefs): InboundReport {
  const reportedType = str(d.delayType);
  const recipients = arr(d.delayedRecipients)
    .slice(0, MAX_RECIPIENTS)
    .map((r) => sesRecipient(obj(r), 'delayed', reportedType));
  return {
    kind: 'bounce',
    format: 'ses',
    reportingMta: typedText(str(d.reportingMTA)),
    recipients: recipients.length ? recipients : [sesRecipient({}, 'delayed', reportedType)],
    original,
  };
}

function sesRecipient(r: Json, action: string, reportedType: string | undefined): BouncedRecipient {
  const status = readStatus(str(r.status));
  const diagnostic = typedText(str(r.diagnosticCode));
  return {
    recipient: address(r.emailAddress),
    originalRecipient: undefined,
    action,
    status,
    diagnostic,
    remoteMta: undefined,
    classification: classifyReport({ action, status, diagnostic, source: 'ses', reportedType }),
  };
}

function complaint(c: Json, original: OriginalRefs, reportedBy: string | undefined): InboundReport {
  return feedbackReport({
    // SES leaves it out when the feedback loop did not say: the recipient marked the message as spam.
    feedbackType: str(c.complaintFeedbackType)?.toLowerCase() ?? 'abuse',
    format: 'ses',
    userAgent: str(c.userAgent),
    reportedBy,
    sourceIp: undefined,
    arrivalDate: str(c.arrivalDate) ?? str(c.timestamp),
    originalRcptTo: address(obj(arr(c.complainedRecipients)[0]).emailAddress),
    original,
  });
}

/** The sent message as SES saw it: our VERP envelope sender, our Message-ID, the recipient. */
function originalOf(mail: Json): OriginalRefs {
  const headers = arr(mail.headers).map(obj);
  const header = (name: string) =>
    str(headers.find((h) => str(h.name)?.toLowerCase() === name)?.value) ?? undefined;
  const common = obj(mail.commonHeaders);
  const messageId = header('message-id') ?? str(common.messageId);
  const verp = [str(mail.source), header('return-path')].filter((a): a is string => a !== undefined);
  return {
    messageId: messageId === undefined ? undefined : angleAddress(messageId, false),
    verpAddresses: verpAddressesIn(verp.join(' ')),
    to: address(arr(mail.destination)[0]),
    // The headers as SES lists them (name and value), one field a line: enough for a check of our
    // DKIM signature, whose relaxed form does not depend on folding.
    headers: headers
      .map((h) => `${str(h.name) ?? ''}: ${str(h.value) ?? ''}`)
      .join('\r\n')
      .slice(0, MAX_ORIGINAL_HEADERS),
  };
}

function address(value: unknown): string | undefined {
  const text = str(value);
  return text === undefined ? undefined : addressField(angleAddress(text) ?? text)?.toLowerCase();
}

/** A string value cut to a header line's length (everything here is the sender's to choose). */
function str(value: unknown): string | undefined {
  return typeof value === 'string' ? cap(value) : undefined;
}

function obj(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * The JSON object that starts at the first `{` of `text` (after white space only), parsed; undefined
 * when there is none or it does not parse. The object's end is found in one pass (strings and their
 * escapes skipped), so text after it (SNS's footer) is left out.
 */
export function jsonObjectIn(text: string): Json | undefined {
  const start = text.search(/\S/);
  if (start < 0 || text[start] !== '{') return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (--depth === 0) {
        try {
          return obj(JSON.parse(text.slice(start, i + 1)));
        } catch {
          return undefined;
        }
      }
    }
  }
  return undefined;
}
