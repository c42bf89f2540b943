// What a report's copy of the returned original says about it: its Message-ID, the VERP addresses in
// its headers (Return-Path, envelope copies) and its To. This is how a report is matched to the
// message it is about when it was not sent to that message's VERP address.
import type { Attachment } from 'mailparser';
import { angleAddress } from './address-scan.js';
import type { OriginalRefs } from './inbound-report.js';
import { addressField, field, parseFieldGroups } from './report-fields.js';
import { cap, MAX_ORIGINAL_HEADERS } from './text-limits.js';

/** A VERP address of ours: b+, the message id and tag in hex, @ a domain. */
export const VERP = /b\+[0-9a-f]{48}@[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?/gi;

/** The MIME types a returned original (or its header block) comes in: RFC 3462 §3, RFC 5965 §2, RFC 6532. */
export const ORIGINAL_TYPES: ReadonlySet<string> = new Set([
  'message/rfc822',
  'text/rfc822-headers',
  'message/global',
  'message/global-headers',
]);

/**
 * The returned original's headers: from a message/rfc822 or text/rfc822-headers part, else the copy
 * quoted in a plain-text notice (`text`). The part is read from the raw message first: RFC 2046 §5.2.1
 * allows message/rfc822 no transfer encoding beyond 8bit, so the raw text is the part.
 */
export function originalRefs(raw: Buffer, attachments: Attachment[], text: string): OriginalRefs {
  const fromRaw = rawOriginalHeaders(raw.toString('latin1'));
  const refs = fromRaw === undefined ? undefined : refsFromHeaders(fromRaw);
  if (refs && (refs.messageId || refs.verpAddresses.length > 0)) return refs;
  // A part sent with a transfer encoding anyway (it happens): mailparser has decoded it.
  const part = attachments.find((a) => ORIGINAL_TYPES.has(a.contentType?.toLowerCase() ?? ''));
  if (part)
    return refsFromHeaders(headerBlock(part.content.subarray(0, MAX_ORIGINAL_HEADERS).toString('utf8')));
  return refs ?? refsFromHeaders(text);
}

/** `headerText` is cut to MAX_ORIGINAL_HEADERS here; its lines and values to 998 by parseFieldGroups. */
function refsFromHeaders(fullHeaderText: string): OriginalRefs {
  const headerText = cap(fullHeaderText, MAX_ORIGINAL_HEADERS);
  const headers = parseFieldGroups(headerText).reduce((all, g) => {
    for (const [k, v] of g) if (!all.has(k)) all.set(k, v);
    return all;
  }, new Map<string, string[]>());
  const messageId = angleAddress(field(headers, 'message-id') ?? '', false);
  // Microsoft's feedback loop (JMRP) names the recipient in a header of its own on the original.
  const toHeader = field(headers, 'x-hmxmroriginalrecipient') ?? field(headers, 'to');
  const to = addressField(angleAddress(toHeader ?? '') ?? toHeader);
  return {
    messageId,
    verpAddresses: verpAddressesIn(headerText),
    to: to?.toLowerCase(),
    headers: headerText,
  };
}

/** The distinct VERP addresses in `text`, lower case. */
export function verpAddressesIn(text: string): string[] {
  return [...new Set((text.match(VERP) ?? []).map((a) => a.toLowerCase()))];
}

const ORIGINAL_PART =
  /^content-type:[ \t]*(?:message\/rfc822|text\/rfc822-headers|message\/global|message\/global-headers)\b/im;

function rawOriginalHeaders(raw: string): string | undefined {
  const start = ORIGINAL_PART.exec(raw);
  if (!start) return undefined;
  // Skip the rest of the part's own header block, then take the original's header block.
  const afterPartHeaders = /\r?\n\r?\n/.exec(raw.slice(start.index));
  if (!afterPartHeaders) return undefined;
  // Cut before looking for its end: a part that never ends is read no further than this.
  const body = raw
    .slice(start.index + afterPartHeaders.index + afterPartHeaders[0].length)
    .slice(0, MAX_ORIGINAL_HEADERS);
  const end = /\r?\n\r?\n|\r?\n--/.exec(body);
  return end ? body.slice(0, end.index) : body;
}

/** The header block at the start of `text`: up to its first blank line. */
export function headerBlock(text: string): string {
  const blank = /\r?\n\r?\n/.exec(text);
  return blank ? text.slice(0, blank.index) : text;
}
