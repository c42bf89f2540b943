// Complaints from feedback loops that do not speak ARF: a mailbox provider (or a person) forwards the
// message its recipient marked as spam, attached or quoted, under a few words saying so. Microsoft's
// JMRP ("This is an email abuse report for an email message with the message-id of …", the original
// attached with X-HmXmrOriginalRecipient), AOL's older "Client TOS Notification", and the plain
// "Spam complaint" forwards of smaller providers and Comcast-style abuse desks.
//
// Recognising one takes two things: words that say it is an abuse report, in the Subject or in the
// report's own text (never in the forwarded original, which may say anything), and a forwarded
// original that names one of our messages (a Message-ID or a VERP address in its headers).
import type { InboundReport, OriginalRefs } from './inbound-report.js';
import { feedbackReport } from './feedback-report.js';
import { cap } from './text-limits.js';

// How much of the report's own text says what it is: the first lines, before the forwarded original.
const INTRO = 2048;
// A complaint says who complained ("a subscriber reported the attached message as spam"): a rejection
// notice's "message flagged as spam" is no complaint.
const REPORT_WORDS =
  /\babuse report|\bspam (report|complaint)|\bcomplaint about (a |this )?message|\bfeedback loop|\bfbl (report|complaint)|client tos notification|\[spamcop\b|\bspamcop v\d|\bjunk (mail )?report|\b(user|subscriber|recipient|customer|member)s? (has |have )?(reported|marked|flagged)/i;
// The words of a complaint a person writes ("this is spam", "unerwünschte Werbung"), believed only
// from a person: not from the null sender, not from an automatic reply, and not beside the words of a
// refusal (a filter's quarantine notice says "identified as unsolicited bulk email" too).
const PERSON_WORDS =
  /\bthis is spam\b|\bspam from\b|\bunsolicited (e-?mail|mail|message|bulk)|unerw\u00fcnschte? (e-?mail|werbung|nachricht|post)|\bspam-?beschwerde|signalement (de |d'un )?spam|courrier ind\u00e9sirable|correo no deseado|posta indesiderata|ongewenste (e-?mail|mail)/i;
const REFUSAL_WORDS =
  /reject|block|refus|quarantin|not (?:been )?delivered|bloqu|rechaz|bloccat|respint|abgelehnt|zur\u00fcckgewiesen|gesperrt|geblockt/i;
const SOURCE_IP = /\bIP(?: address)?:?\s+\[?(\d{1,3}(?:\.\d{1,3}){3})\b/i;

export interface ForwardedInput {
  subject: string;
  /** The report's own text, without the forwarded original. */
  text: string;
  /** The report's From address. */
  from: string | undefined;
  original: OriginalRefs;
  /** The envelope sender ('' for the null sender). */
  mailFrom: string;
  /** Whether the message marks itself as an automatic answer (auto-reply.ts answersAutomatically). */
  automatic: boolean;
}

/** The complaint a forwarded report makes, or undefined when the message is not one. */
export function readForwardedComplaint(input: ForwardedInput): InboundReport | undefined {
  const intro = cap(input.text, INTRO);
  const byPerson =
    input.mailFrom !== '' &&
    !input.automatic &&
    !REFUSAL_WORDS.test(input.subject) &&
    !REFUSAL_WORDS.test(intro) &&
    (PERSON_WORDS.test(input.subject) || PERSON_WORDS.test(intro));
  if (!REPORT_WORDS.test(input.subject) && !REPORT_WORDS.test(intro) && !byPerson) return undefined;
  const { original } = input;
  if (!original.messageId && original.verpAddresses.length === 0) return undefined;
  return feedbackReport({
    // The recipient marked it as spam: RFC 5965's `abuse`.
    feedbackType: 'abuse',
    format: 'forwarded',
    userAgent: undefined,
    reportedBy: input.from,
    sourceIp: SOURCE_IP.exec(intro)?.[1],
    arrivalDate: undefined,
    originalRcptTo: original.to,
    original,
  });
}
