// Text a remote peer wrote (an SMTP server's reply, a webhook endpoint's answer), as txmail keeps it:
// in the delivery log, in events and webhook payloads, in the database. The peer chooses every byte,
// so the text is capped before anything else touches it, and control characters become U+FFFD:
// PostgreSQL refuses a NUL in text, and an attempt that cannot be recorded is made again and again.

// Every control character (C0, DEL, C1) but tab and line feed.
const CONTROL = /(?![\t\n])\p{Cc}/gu;

/** At most `max` characters of `raw` (then `…`), tabs and line feeds kept, other controls replaced. */
export function peerText(raw: string, max: number): string {
  let text = raw.length > max ? raw.slice(0, max) : raw;
  // Never end on half of a surrogate pair: it would be stored as U+FFFD anyway, and looks like damage.
  if (text.length < raw.length && /[\ud800-\udbff]$/.test(text)) text = text.slice(0, -1);
  text = text.replace(CONTROL, '\ufffd');
  return text.length < raw.length ? `${text}…` : text;
}
