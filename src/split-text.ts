// Long text cut in pieces for work done a piece at a time (a large HTML stored in parts, a large field
// of an answer written a piece a turn), each piece still well-formed UTF-16 on its own.

/**
 * `text` cut in pieces of at most `length` code units (a pair alone when `length` is 1), never between
 * the halves of a surrogate pair.
 */
export function splitText(text: string, length: number): string[] {
  const parts: string[] = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(at + length, text.length);
    // A high surrogate as the last unit: its low half would start the next piece, and each half alone
    // would be stored as U+FFFD (UTF-8 has no lone surrogates) or written as an escape in JSON.
    const last = text.charCodeAt(end - 1);
    // (Not when the pair is all the piece would hold: a piece of length 1 keeps it whole.)
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end = end - 1 > at ? end - 1 : end + 1;
    parts.push(text.slice(at, end));
    at = end;
  }
  return parts;
}
