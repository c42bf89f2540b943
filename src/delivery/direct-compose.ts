// The common message written directly, byte for byte what nodemailer's MailComposer writes for it
// (compose.ts), without its stream pipeline: a message of ASCII headers that need no encoding or
// folding, and a text and an HTML part that are 7bit or quoted-printable. MailComposer streams each
// part through transforms and setImmediate turns, which cost more CPU than the DKIM signature
// (docs/benchmarks.md, "Where a message's CPU goes"); anything outside that shape is still MailComposer's.
// test/unit/direct-compose.test.ts checks the two agree on generated messages.
import { randomBytes } from 'node:crypto';
import * as mimeFuncs from 'nodemailer/lib/mime-funcs';
import * as qp from 'nodemailer/lib/qp';
import type { OutgoingMessage } from './compose.js';

/** The longest header line written as one line (MailComposer folds those of 76 characters or more). */
const LINE = 75;
/** Quoted-printable input MailComposer's encoder takes in one slice (nodemailer qp ENCODE_SLICE_SIZE). */
const MAX_PART = 64 * 1024;
const NAME = /^(?:[A-Za-z0-9]+(?: [A-Za-z0-9]+)*)?$/;
const ADDRESS = /^[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@[a-z0-9-]+(?:\.[a-z0-9-]+)+$/;
/**
 * Printable ASCII words separated by single spaces, without the double quote (MailComposer encodes a
 * value holding one) or anything an encoded-word could be read from ("=?").
 */
const UNSTRUCTURED = /^[!#-~]+(?: [!#-~]+)*$/;

/**
 * The message as MailComposer would write it with `messageId` and `date` (compose.ts composeMessage),
 * or undefined when it is not of the shape written here.
 */
export function composeDirect(
  m: OutgoingMessage,
  messageId: string,
  text: string,
  boundaryHex: string = randomBytes(8).toString('hex'),
): Buffer | undefined {
  if (!NAME.test(m.fromName) || !NAME.test(m.toName)) return undefined;
  if (!ADDRESS.test(m.fromEmail) || !ADDRESS.test(m.toEmail)) return undefined;
  if (!UNSTRUCTURED.test(m.subject) || m.subject.includes('=?')) return undefined;
  if (m.feedbackId !== undefined && !UNSTRUCTURED.test(m.feedbackId)) return undefined;
  const textBody = partBody(text);
  const htmlBody = partBody(m.html);
  if (!textBody || !htmlBody) return undefined;
  const headers = [
    ...(m.feedbackId === undefined ? [] : [`Feedback-ID: ${m.feedbackId}`]),
    `From: ${mailbox(m.fromName, m.fromEmail)}`,
    `To: ${mailbox(m.toName, m.toEmail)}`,
    `Subject: ${m.subject}`,
    `Message-ID: ${messageId}`,
  ];
  if (headers.some((h) => h.length > LINE)) return undefined;
  const boundary = `--_NmP-${boundaryHex}-Part_1`;
  const out =
    headers.join('\r\n') +
    `\r\nDate: ${new Date(m.createdAt).toUTCString().replace(/GMT/, '+0000')}` +
    '\r\nMIME-Version: 1.0' +
    `\r\nContent-Type: multipart/alternative;\r\n boundary="${boundary}"\r\n\r\n` +
    `--${boundary}\r\nContent-Type: text/plain; charset=utf-8\r\n${textBody}` +
    `\r\n--${boundary}\r\nContent-Type: text/html; charset=utf-8\r\n${htmlBody}` +
    `\r\n--${boundary}--\r\n`;
  return Buffer.from(out, 'latin1');
}

function mailbox(name: string, address: string): string {
  return name === '' ? address : `${name} <${address}>`;
}

/**
 * A part's Content-Transfer-Encoding field, the empty line and its content as MailComposer writes a
 * string part (7bit when it may, else quoted-printable), newlines as CRLF; undefined for what it
 * would write otherwise (base64 for mostly non-Latin text) or splits differently (bare CRs, white
 * space at the end, parts beyond one encoder slice).
 */
function partBody(content: string): string | undefined {
  if (content === '' || content.length > MAX_PART || content.includes('\r')) return undefined;
  const last = content.charCodeAt(content.length - 1);
  if (last === 0x20 || last === 0x09) return undefined;
  if (mimeFuncs.isPlainText(content) && !mimeFuncs.hasLongerLines(content, 76)) {
    return `Content-Transfer-Encoding: 7bit\r\n\r\n${crlf(content)}`;
  }
  if (!mostlyLatin(content)) return undefined;
  return `Content-Transfer-Encoding: quoted-printable\r\n\r\n${crlf(qp.wrap(qp.encode(content), 76))}`;
}

/** Lone LFs as CRLF (MailComposer's newline: 'win'); the encoder's soft breaks are CRLF already. */
function crlf(s: string): string {
  return s.replace(/(?<!\r)\n/g, '\r\n');
}

/** MimeNode's choice of Q over B: more Latin letters than control and non-ASCII characters. */
function mostlyLatin(value: string): boolean {
  let other = 0;
  let latin = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c <= 0x08 || c === 0x0b || c === 0x0c || (c >= 0x0e && c <= 0x1f) || c >= 0x80) other++;
    else if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) latin++;
  }
  return other < latin;
}
