// Bounces that are not RFC 3464 reports: the human-readable notices of qmail, older Exim, Exchange,
// Yahoo and others. Best effort: the message is already identified by its VERP address, so all this
// has to find is whether it failed or is delayed, the recipient, and the server's reply.
import { firstAddress } from './address-scan.js';
import type { HeaderLookup } from './auto-reply.js';
import { cap, cappedLines, MAX_TEXT } from './text-limits.js';

export interface PlainBounce {
  hint: 'failed' | 'delayed';
  recipients: string[];
  /** The line quoting the remote server's reply, if one was found. */
  diagnostic: string | undefined;
  /** The human-readable part, without the returned original message. */
  text: string;
}

const SENDER = /mailer-daemon|postmaster|mail delivery (subsystem|system)|mdaemon|delivery-status/i;
const SUBJECT =
  /undeliver|undelivered|delivery (status notification|failure|failed|has failed|notification)|returned mail|failure notice|mail delivery failed|non.?delivery|could not be delivered|delivery problem|delayed mail|delivery delayed|warning: message|mail system error/i;
const BODY =
  /this is the qmail-send program|mail delivery software|could not be delivered|couldn't be delivered|delivery has failed|unable to deliver|permanent error|was not delivered|message not delivered|not yet been delivered|delivery to the following recipient|the following address(es)? failed/i;
const DELAY =
  /delayed|delivery delay|not yet been delivered|still being retried|will (continue|keep) (trying|to try)|still trying|will retry/i;
// Where the copy of the original message begins in the various MTAs' notices: the line holding one of
// these. (Found as words, then the line's start looked up: a `^.*(…).*$` pattern would scan each long
// line once per position in it.)
const ORIGINAL =
  /this is a copy of the message|below this line is a copy of the message|original message (headers )?follow|original message headers|----- original message -----|message headers follow|the headers of the returned message|^original-recipient|returned message follows|--- the original message was received/im;
// What `.` does not match and `^` follows in a multiline pattern (ECMA-262 LineTerminator).
const LINE_BREAK = /^[\n\r\u2028\u2029]$/;
const CODE_LINE = /(?:^|[\s#:(])[45]\d\d(?:[\s-]|$)|(?<![\d.])[45]\.\d{1,3}\.\d{1,3}(?![\d.]*\d)/;

/**
 * Recognises a plain-text bounce; undefined when the message does not look like one. Reads at most the
 * first MAX_TEXT characters of `text`, and lines of at most 998 (header values come cut to size).
 */
export function parsePlainBounce(
  header: HeaderLookup,
  subject: string,
  fullText: string,
  envelopeSender: string,
): PlainBounce | undefined {
  const text = cap(fullText, MAX_TEXT);
  const failedHeader = header('x-failed-recipients');
  const fromMailer = envelopeSender === '' || SENDER.test(header('from') ?? '');
  const cut = ORIGINAL.exec(text);
  const human = cut ? text.slice(0, lineStart(text, cut.index)) : text;
  const looksLike =
    failedHeader !== undefined ||
    /this is the qmail-send program/i.test(human) ||
    (fromMailer && (SUBJECT.test(subject) || BODY.test(human)));
  if (!looksLike) return undefined;

  const recipients = new Set<string>();
  for (const a of (failedHeader ?? '').split(',')) {
    const address = firstAddress(a);
    if (address) recipients.add(address.toLowerCase());
  }
  const lines = cappedLines(human);
  for (const line of lines) {
    // A recipient on a line of its own (qmail "<jane@x>:", Exim and Exchange "  jane@x").
    // Postfix-style "<jane@x>: host … said: 550 …" too. (Anchored, and the classes on either side of
    // each quantifier exclude each other: linear in the line.)
    const m = /^\s*<?([^\s<>@]+@[^\s<>]+?)>?:?\s*$/.exec(line) ?? /^\s*<([^\s<>@]+@[^\s<>]+)>:\s/.exec(line);
    if (m && firstAddress(m[1]!) !== undefined) recipients.add(m[1]!.toLowerCase());
  }
  let diagnostic: string | undefined;
  for (let i = 0; i < lines.length && !diagnostic; i++) {
    const line = lines[i]!.trim();
    if (!CODE_LINE.test(line) || /^(received|date|x-[\w-]+|message-id|arrival-date):/i.test(line)) continue;
    // Exim quotes the reply on the lines after "SMTP error … after RCPT TO:<x>:".
    const next = lines[i + 1]?.trim();
    diagnostic = /:$/.test(line) && next ? `${line} ${next}` : line;
  }
  const hint = DELAY.test(subject) || DELAY.test(human) ? 'delayed' : 'failed';
  return { hint, recipients: [...recipients], diagnostic, text: human };
}

/** Where the line holding `index` starts. */
function lineStart(text: string, index: number): number {
  let start = index;
  while (start > 0 && !LINE_BREAK.test(text[start - 1]!)) start--;
  return start;
}
