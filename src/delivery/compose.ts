// The outgoing MIME message: the caller's HTML exactly as given, a plain-text alternative generated from
// it, and the headers a receiving system expects (RFC 5322 §3.6). MIME structure, RFC 2047 header
// encoding and line lengths are nodemailer's MailComposer's job.
import { compile } from 'html-to-text';
import MailComposer from 'nodemailer/lib/mail-composer';
import * as mimeFuncs from 'nodemailer/lib/mime-funcs';
import { composeDirect } from './direct-compose.js';
import { wrapText } from './wrap-text.js';

export interface OutgoingMessage {
  id: string;
  fromName: string;
  fromEmail: string;
  toName: string;
  toEmail: string;
  subject: string;
  html: string;
  createdAt: number;
  /**
   * The Feedback-ID header (deliver-message.ts feedbackId), signed with the message (dkim/sign.ts);
   * absent: none.
   */
  feedbackId?: string;
}

/**
 * The complete RFC 5322 message, CRLF line endings, not yet signed. The common shape is written
 * directly (direct-compose.ts, the same bytes without MailComposer's streams), the rest by MailComposer.
 */
export function composeMessage(m: OutgoingMessage, hostname: string): Promise<Buffer> {
  const subject = foldableSubject(m.subject);
  const messageId = messageIdHeader(m.id, hostname);
  const text = plainText(m.html);
  const direct = subject === m.subject ? composeDirect(m, messageId, text) : undefined;
  return direct ? Promise.resolve(direct) : composeByMailComposer(m, subject, messageId, text);
}

/** The message as MailComposer writes it (`subject` already made foldable: foldableSubject). */
export function composeByMailComposer(
  m: OutgoingMessage,
  subject: string,
  messageId: string,
  text: string,
): Promise<Buffer> {
  const composer = new MailComposer({
    from: { name: m.fromName, address: m.fromEmail },
    to: { name: m.toName, address: m.toEmail },
    subject,
    messageId,
    date: new Date(m.createdAt),
    text,
    html: m.html,
    newline: 'win',
    // The content is the caller's string and nothing else: never follow a URL or read a file.
    disableUrlAccess: true,
    disableFileAccess: true,
    xMailer: false,
    ...(m.feedbackId === undefined ? {} : { headers: { 'Feedback-ID': m.feedbackId } }),
  });
  return composer.compile().build();
}

/**
 * A run of non-blank characters longer than this cannot be folded onto a line of 78 octets after
 * "Subject: " (RFC 5322 §2.1.1: lines SHOULD stay within 78 and MUST within 998 octets; folding happens
 * only at white space). The API accepts subjects of 998 characters, so one word could make a 1,007-octet
 * line.
 */
const LONGEST_FOLDABLE_WORD = 66;
const UNFOLDABLE = new RegExp(`\\S{${LONGEST_FOLDABLE_WORD + 1}}`);

/**
 * The subject as the composer should write it: as it is when it folds and holds nothing that looks
 * like an encoded-word, else as RFC 2047 encoded-words
 * (UTF-8, Q) of at most 52 characters each, which the composer folds between the words. A reader
 * decodes adjacent encoded-words into one string without the white space between them, so the subject
 * shown is exactly the one given. (Non-ASCII subjects are encoded by the composer itself.)
 */
export function foldableSubject(subject: string): string {
  return UNFOLDABLE.test(subject) || LOOKS_ENCODED.test(subject)
    ? mimeFuncs.encodeWord(subject, 'Q', 52)
    : subject;
}

/**
 * Text a reader would decode as an encoded-word (RFC 2047 §2: `=?charset?B|Q?text?=`): written as is, a
 * subject `=?utf-8?b?QmNjOiBldmlsQHgub3Jn?=` shows as "Bcc: evil@x.org". Encoded itself, it shows as
 * typed (§5: text that could be taken for an encoded-word is encoded). Spaces inside count: decoders
 * (libmime, mailparser's) read `=?utf-8?q?Bcc: x?=` too. Linear: each try stops at the next "?".
 */
const LOOKS_ENCODED = /=\?[^?]*\?[bq]\?[^?]*\?=/i;

export function messageIdHeader(id: string, hostname: string): string {
  return `<${id}@${hostname}>`;
}

/**
 * The text alternative is made from at most this much of the HTML. Converting costs up to about half a
 * microsecond per character (far more than composing), and the HTML may be 10 MiB: this bounds the
 * cost per message to well under a second; mail clients show far less of a long message anyway.
 */
export const MAX_TEXT_SOURCE_LENGTH = 256 * 1024;
/**
 * Elements nested deeper than this are left out of the text alternative. html-to-text walks the tree
 * by recursion: without a limit, HTML nested a few thousand deep overflows the stack, so the message
 * could never be built; real templates nest a few dozen deep.
 */
export const MAX_TEXT_DEPTH = 100;
const TEXT_WIDTH = 78; // RFC 5322 §2.1.1
const CUT_NOTE = '\n\n[…the rest of this message is in its HTML version]';

// Compiled once: compiling the selectors costs more than converting a typical message.
const toText = compile({
  // Folded by wrapText, in one pass: html-to-text's own folding is quadratic in a word's pieces.
  wordwrap: false,
  limits: { maxDepth: MAX_TEXT_DEPTH, ellipsis: '…' },
  selectors: [
    { selector: 'img', format: 'skip' },
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
  ],
});

/**
 * The text/plain alternative: what the HTML says, readable in a terminal mail client. Linear in the
 * HTML; `maxSource` (tests lift it) bounds how much of the HTML it reads.
 */
export function plainText(html: string, maxSource = MAX_TEXT_SOURCE_LENGTH): string {
  if (html.length <= maxSource) return wrapText(toText(html), TEXT_WIDTH);
  let end = maxSource;
  if (/[\ud800-\udbff]/.test(html[end - 1]!)) end--; // never half of a surrogate pair
  return wrapText(toText(html.slice(0, end)), TEXT_WIDTH) + CUT_NOTE;
}
