// A multi-line SMTP reply joined into one line (RFC 5321 §4.2.1: each line but the last starts
// "421-", the last "421 ", and servers repeat the enhanced code on each): the words of the reply with
// the later lines' prefixes taken out, so that a phrase is read the same wherever the server or the
// reporting MTA broke its lines ("unusual rate of 421-4.7.28 unsolicited mail" is "unusual rate of
// unsolicited mail").

const OPENING = /^\s*(?:smtp;\s*)?([2-5]\d\d)[- ]([2-5]\.\d{1,3}\.\d{1,3}(?=\s))?/i;

/** `text` without the repeated prefixes of its reply's later lines; as it is when it opens with no code. */
export function joinedReply(text: string): string {
  const m = OPENING.exec(text);
  if (!m) return text;
  const [, code, enhanced] = m;
  // With an enhanced code, the code and that code (the last line's "421 4.7.28 " too); without one,
  // only the continuation form ("550-"), as a number in the words is more likely than a last line.
  // The line break before each later line goes with its prefix: one space between the lines' words.
  // From the first blank of a run only ((?<!\s)): linear in a run of blanks without the code.
  const later = enhanced
    ? new RegExp(`(?<!\\s)\\s+${code}[- ]${enhanced.replace(/\./g, '\\.')}\\s+`, 'g')
    : new RegExp(`(?<!\\s)\\s+${code}-(?=\\S)`, 'g');
  const start = m[0].length;
  return text.slice(0, start) + text.slice(start).replace(later, ' ');
}
