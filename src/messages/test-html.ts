// What a test send stores of its HTML. The test route skips the monthly cap and delivers nothing, so the
// stored copy is only there to be looked at in the log: a few KiB show that the request arrived as
// meant, and storing 10 MiB bodies at the API's rate would let one account fill the disk. Real sends
// store their HTML whole (the worker needs it).

/** The most HTML a test send stores, in UTF-8 bytes, before the note that says what was left out. */
export const TEST_HTML_MAX_BYTES = 64 * 1024;

export interface StoredTestHtml {
  html: string;
  /** Set when the HTML was cut: its size as sent, in UTF-8 bytes. */
  truncatedFrom?: number;
}

/**
 * The HTML to store for a test send: as sent when it fits in TEST_HTML_MAX_BYTES; otherwise its first
 * ≤ 64 KiB, cut between characters (never inside a UTF-8 sequence or a surrogate pair) and before a tag
 * the cut would leave open, followed by an HTML comment saying how many bytes were not stored.
 * Linear in the HTML's length, and only the kept prefix is encoded.
 */
export function storedTestHtml(html: string, maxBytes = TEST_HTML_MAX_BYTES): StoredTestHtml {
  // A UTF-16 code unit takes at most three UTF-8 bytes (a surrogate pair, two units, takes four): a
  // string this short always fits.
  if (html.length <= maxBytes / 3) return { html };
  const bytes = Buffer.byteLength(html, 'utf8');
  if (bytes <= maxBytes) return { html };
  // encodeInto writes whole characters only and says how many code units it took. No more than
  // maxBytes code units can fit, so only that much of the string is looked at.
  const { read } = new TextEncoder().encodeInto(html.slice(0, maxBytes), new Uint8Array(maxBytes));
  let kept = html.slice(0, read);
  // A tag cut in two would swallow the note (and what a browser shows after it): end before it.
  const open = kept.lastIndexOf('<');
  if (open > kept.lastIndexOf('>')) kept = kept.slice(0, open);
  const left = bytes - Buffer.byteLength(kept, 'utf8');
  const note = `<!-- txmail: ${left.toLocaleString('en-US')} more bytes not stored (test sends keep at most ${maxBytes / 1024} KiB) -->`;
  return { html: kept + note, truncatedFrom: bytes };
}
