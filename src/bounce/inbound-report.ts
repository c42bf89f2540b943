// What a message sent to the return path (or to fbl@) turns out to be, once parsed: the facts each
// format reader hands the inbound processor. Types only.
import type { ReplyVerdict } from './reply-intelligence.js';

export interface BouncedRecipient {
  /** RFC 3464 §2.3.2 Final-Recipient (or the address a plain bounce names). */
  recipient: string | undefined;
  originalRecipient: string | undefined;
  /** RFC 3464 §2.3.3 Action, read into `failed`, `delayed`, `delivered`, `relayed` or `expanded`. */
  action: string | undefined;
  /** RFC 3464 §2.3.4 Status: the enhanced code found in the field, else the field as written. */
  status: string | undefined;
  diagnostic: string | undefined;
  remoteMta: string | undefined;
  classification: ReplyVerdict;
}

/** What the returned original message (or its headers) says about itself. */
export interface OriginalRefs {
  /** Message-ID without angle brackets. */
  messageId: string | undefined;
  /** Every VERP-looking address (b+…@…) in the original headers (Return-Path, envelope copies). */
  verpAddresses: string[];
  /** The original To address, when not redacted. */
  to: string | undefined;
  /**
   * The original's header block (cut to MAX_ORIGINAL_HEADERS), for a check of our DKIM signature on it
   * when the report names the message by its Message-ID alone (inbound-processor.ts). Never stored.
   */
  headers: string;
}

/** A recipient's complaint (RFC 5965 abuse, fraud, virus, other) or request to unsubscribe (opt-out). */
export type ComplaintCategory = 'complaint' | 'unsubscribe';

/** Who sent a feedback report and what it says of the message it reports. */
export interface FeedbackFacts {
  /** RFC 5965 §3.1 Feedback-Type, lower case (`abuse` for a forwarded report that names none). */
  feedbackType: string;
  /** `arf` (RFC 5965), `forwarded` (a feedback loop's own format, the original attached or quoted), `ses`. */
  format: 'arf' | 'forwarded' | 'ses';
  userAgent: string | undefined;
  /** The report's From address (the feedback loop or the person who forwarded the message). */
  reportedBy: string | undefined;
  sourceIp: string | undefined;
  arrivalDate: string | undefined;
  originalRcptTo: string | undefined;
  /**
   * Every Original-Rcpt-To of an ARF report (RFC 5965 §3.2 lets one report name several recipients,
   * ours not always the first); absent elsewhere.
   */
  originalRcptTos?: string[];
  original: OriginalRefs;
}

/** The recipients a feedback report shows for the message it reports (none when it hides them). */
export function shownRecipients(r: FeedbackFacts): string[] {
  if (r.originalRcptTos?.length) return r.originalRcptTos;
  const one = r.originalRcptTo ?? r.original.to;
  return one ? [one] : [];
}

export type InboundReport =
  | {
      kind: 'bounce';
      /** `dsn`: RFC 3464 or RFC 6533; `plain`: a human-readable notice; `ses`: an Amazon SES notification. */
      format: 'dsn' | 'plain' | 'ses';
      reportingMta: string | undefined;
      recipients: BouncedRecipient[];
      original: OriginalRefs;
    }
  | ({ kind: 'complaint'; category: ComplaintCategory } & FeedbackFacts)
  | ({
      /**
       * A feedback report that is not a complaint: RFC 6591 auth-failure, RFC 6650 not-spam, or a type
       * txmail does not know. Recorded on the message; never a complaint, never a suppression.
       */
      kind: 'feedback';
      /** RFC 6591 §3.1 Auth-Failure (`dkim`, `spf`, `dmarc`, …) of an auth-failure report. */
      authFailure: string | undefined;
    } & FeedbackFacts)
  | {
      /**
       * An automatic reply (RFC 3834: an out-of-office, a vacation notice, a read receipt): the message
       * was delivered. Recorded on it, with who answered and the subject, not the text.
       */
      kind: 'auto_reply';
      reason: string;
      subject: string;
      from: string | undefined;
    }
  | {
      /**
       * Mail from the null sender (RFC 5321 §4.5.5: notices about a message) that is none of the
       * above. Recorded on the message with its text when sent to one of our VERP addresses.
       */
      kind: 'undetermined';
      reason: string;
      subject: string;
      from: string | undefined;
      /** The human-readable text, without a returned original, at most MAX_NOTICE_TEXT characters. */
      text: string;
      original: OriginalRefs;
    }
  | { kind: 'ignored'; reason: string };

export interface Envelope {
  /** MAIL FROM, '' for the null sender. */
  mailFrom: string;
}
