// The line of a human-readable bounce notice that quotes the remote server (or says why delivery
// failed): the first line with an SMTP reply code or an enhanced status code, with the lines that
// continue it (Postfix and Exim fold a long reply onto indented lines); else the words after a lead-in
// such as Domino's "because:", qmail's "Remote host said:", Gmail's "The response was:", Office 365's
// "Reported error:", Mailman's "rejected for the following reasons:"; else what follows the recipient
// on its line (GroupWise's "jane@x (user not found)").
import { lineRecipient } from './notice-recipients.js';
import { cap, MAX_LINE } from './text-limits.js';

const CODE_LINE = /(?:^|[\s#;:(：；（【「])[45]\d\d(?:[\s-]|$)|(?<![\d.])[45]\.\d{1,3}\.\d{1,3}(?![\d.]*\d)/;
// Lines that carry digits but never a server's reply.
const NOT_A_REPLY = /^(received|date|x-[\w-]+|message-id|arrival-date|created date|sent|last-attempt-date):/i;
// Lead-ins, lower case, most specific first.
const LEADS = [
  'the error that the other server returned was:',
  'the response from the remote server was:',
  'the response was:',
  'remote host said:',
  'reported error:',
  'remote server returned',
  'delay reason:',
  'error reason:',
  // hMailServer's "Error Type: SMTP" then "Error Description: No mail servers appear to exist …".
  'error description:',
  'diagnostic-code:',
  'rejected for the following',
  'the reason it is being held:',
  'because:',
  'reason:',
  // A filtering gateway's "Reason: blocked by … policy" names the rule in a "Detail:" below it
  // (Clearswift's "The attachment … is of a prohibited file type"): read with it.
  'details:',
  'detail:',
];
// A line that details the reason given above it.
const DETAIL_LEAD = /^\s*details?:/i;
// A reply folded over more lines than this is cut.
const MAX_CONTINUATIONS = 4;

/**
 * The diagnostic of a notice whose own text is `lines` (each at most 998 characters): the words after a
 * lead-in when they carry a reply code (Office 365's "Reported error: 550 5.4.1 Recipient address
 * rejected: Access denied", not its "Status code: 550 5.4.1" above), else the first line with a code,
 * else the words after a lead-in, else `remainder` (what the notice says beside the recipient).
 */
/**
 * What a notice says under one recipient it lists (notice-recipients.ts `entries`): the reply among
 * those lines, else their words; undefined when it says nothing there.
 */
export function entryDiagnostic(lines: string[]): string | undefined {
  return noticeDiagnostic(lines, lines.join(' ').trim() || undefined);
}

export function noticeDiagnostic(lines: string[], remainder: string | undefined): string | undefined {
  let uncoded: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const lead = afterLead(lines, i);
    if (lead === undefined) continue;
    if (CODE_LINE.test(lead)) return lead;
    // A reason's detail, when it is one (DETAIL_LEAD), follows the reason's words.
    if (uncoded === undefined) uncoded = lead;
    else if (DETAIL_LEAD.test(lines[i]!) && !uncoded.includes(lead)) uncoded = cap(`${uncoded} ${lead}`);
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!CODE_LINE.test(line) || NOT_A_REPLY.test(line)) continue;
    const coded = withContinuation(lines, i);
    // A code with a label and no words ("Error Code: 550"), the words under a lead-in of their own
    // ("Error Reason: Rejected by … policy"): both.
    return uncoded !== undefined && wordsIn(coded) < 3 ? cap(`${coded} ${uncoded}`) : coded;
  }
  const rest = remainder?.trim();
  return uncoded ?? (rest ? rest : undefined);
}

/** How many words of three letters or more `text` has beside its codes. */
function wordsIn(text: string): number {
  return text.split(/\s+/).filter((w) => /^[A-Za-z]{3,}[.,;:]?$/.test(w)).length;
}

/**
 * The words after the first lead-in on line `i`: the rest of the line, else the next line that is not
 * blank and not a heading of its own (Mailman's "rejected for the following" then "reasons:"), with
 * the rest of its paragraph (an HTML notice's text comes folded at 80 columns).
 */
function afterLead(lines: string[], i: number): string | undefined {
  const lower = lines[i]!.toLowerCase();
  for (const lead of LEADS) {
    const at = lower.indexOf(lead);
    if (at < 0) continue;
    const after = lines[i]!.slice(at + lead.length).trim();
    if (after !== '' && !after.endsWith(':')) return withParagraph(after, lines, i + 1);
    for (let j = i + 1; j < lines.length && j <= i + MAX_CONTINUATIONS; j++) {
      const line = lines[j]!.trim();
      if (line !== '' && !line.endsWith(':')) return withParagraph(line, lines, j + 1);
    }
    return undefined;
  }
  return undefined;
}

/** `text` with the lines from `from` up to the next blank one (at most MAX_CONTINUATIONS). */
function withParagraph(text: string, lines: string[], from: number): string {
  let out = text;
  for (let j = from; j < lines.length && j < from + MAX_CONTINUATIONS && out.length < MAX_LINE; j++) {
    const next = lines[j]!.trim();
    if (next === '') break;
    out = `${out} ${next}`;
  }
  return cap(out);
}
/**
 * Line `i` with the lines that continue it: indented ones (a folded reply), or the next one when line
 * `i` ends with a colon (Exim: "SMTP error from remote mail server after RCPT TO:<x>:" then the reply).
 */
function withContinuation(lines: string[], i: number): string {
  let text = lines[i]!.trim();
  for (let j = i + 1; j < lines.length && j <= i + MAX_CONTINUATIONS && text.length < MAX_LINE; j++) {
    const next = lines[j]!;
    if (next.trim() === '' || !(/^\s/.test(next) || text.endsWith(':'))) break;
    // The next recipient's entry (Exim indents them all).
    if (lineRecipient(next)) break;
    text = `${text} ${next.trim()}`;
  }
  return cap(text);
}
