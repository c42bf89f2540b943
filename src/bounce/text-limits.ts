// How much of a received message the bounce parsers look at. Everything here comes from whoever sent
// the message (the address fbl@ takes mail from anyone), so every text is cut to size before a pattern
// runs on it: a pattern then costs at most its limit per line, and a message costs time linear in its
// size, whatever it holds (long runs of one character, bare CRs, U+2028, megabyte headers).

/** RFC 5322 §2.1.1: a line is at most 998 characters; a header value is cut to this after unfolding. */
export const MAX_LINE = 998;

/**
 * The human-readable text a plain-text bounce is recognised in. The notices of qmail, Exim and
 * Postfix say what happened in their first few lines; what follows is the returned original.
 */
export const MAX_TEXT = 64 * 1024;

/** The returned original's header block (a message/rfc822 or text/rfc822-headers part). */
export const MAX_ORIGINAL_HEADERS = 64 * 1024;

/**
 * A notice's text as the classifier reads it beside the diagnostic, and as the message's log keeps a
 * notice txmail cannot read (an `undetermined` report): enough for every notice's own words, which
 * come before the returned original.
 */
export const MAX_NOTICE_TEXT = 4 * 1024;

/** `text` cut to `max` characters. */
export function cap(text: string, max: number = MAX_LINE): string {
  return text.length > max ? text.slice(0, max) : text;
}

/** The lines of `text` (CRLF or LF; a bare CR stays in its line), each cut to MAX_LINE. */
export function cappedLines(text: string): string[] {
  return text.split(/\r?\n/).map((line) => cap(line));
}

/** A header field's value: unfolded (RFC 5322 §2.2.3), trimmed, then cut to MAX_LINE. */
export function headerValue(line: string): string {
  return cap(
    line
      .slice(line.indexOf(':') + 1)
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim(),
  );
}
