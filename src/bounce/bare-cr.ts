// RFC 5322 §2.3: CR and LF occur in a message only together, as CRLF. A bare CR is never part of a
// real report, and mailparser's header reader (mailsplit's `/[\r\n]+$/`) tries every position of a run
// of them to the end of the run: 64 KB of `\r\r\n` in one header block cost it seconds.

/** `raw` with every CR that is not followed by LF replaced by a space (`raw` itself when it has none). */
export function replaceBareCrs(raw: Buffer): Buffer {
  let cr = raw.indexOf(13);
  if (cr < 0) return raw;
  const out = Buffer.from(raw);
  for (; cr >= 0; cr = out.indexOf(13, cr + 1)) if (out[cr + 1] !== 10) out[cr] = 32;
  return out;
}
