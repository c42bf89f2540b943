// A sending domain's name as a customer types it → the ASCII (punycode) form txmail stores and publishes.
import { domainToASCII, domainToUnicode } from 'node:url';
import { isIP } from 'node:net';
import { allLdhLabels, numericTopLabel } from './labels.js';

export type ParsedDomainName = { ok: true; ascii: string; unicode: string } | { ok: false; reason: string };

/** Room left for the longest name txmail asks to publish, `<selector>._domainkey.<domain>` (RFC 1035 §2.3.4: 253). */
const MAX_LENGTH = 253 - 'txm202611abcd._domainkey.'.length;

/**
 * The longest `name` field the API looks at (RFC 5321 §4.5.3.1.2: a domain is at most 255 octets);
 * the schema refuses a longer one before it is parsed.
 */
export const MAX_DOMAIN_NAME_FIELD_LENGTH = 255;

/** Linear in the input: one trim, then only anchored patterns and IDNA on a name capped in length. */
export function parseDomainName(input: string): ParsedDomainName {
  const spaced = input.trim();
  const trimmed = spaced.endsWith('.') ? spaced.slice(0, -1) : spaced;
  if (trimmed === '') return { ok: false, reason: 'is empty' };
  // Too long to publish (a longer input could only shrink under IDNA by losing ignored characters
  // such as soft hyphens): refused before IDNA and the patterns below see it.
  if (trimmed.length > MAX_LENGTH) return { ok: false, reason: `is longer than ${MAX_LENGTH} characters` };
  if (isIP(trimmed) || /^\[.*\]$/.test(trimmed))
    return { ok: false, reason: 'must be a domain name, not an IP address' };
  if (/[\s@/:%]/.test(trimmed)) return { ok: false, reason: `"${input}" is not a domain name` };
  // WHATWG's domainToASCII applies UTS #46 (IDNA): lower case, punycode for non-ASCII labels; '' when invalid.
  const ascii = domainToASCII(trimmed);
  if (ascii === '') return { ok: false, reason: `"${input}" is not a valid domain name` };
  const labels = ascii.split('.');
  if (labels.length < 2)
    return { ok: false, reason: `"${input}" needs at least two labels, e.g. example.com` };
  if (!allLdhLabels(labels)) {
    return { ok: false, reason: `"${input}" is not a valid domain name` };
  }
  if (numericTopLabel(labels)) {
    return { ok: false, reason: `"${input}" does not end in a top-level domain` };
  }
  if (ascii.length > MAX_LENGTH) return { ok: false, reason: `is longer than ${MAX_LENGTH} characters` };
  return { ok: true, ascii, unicode: domainToUnicode(ascii) };
}

/** True when `name` is `parent` or one of its subdomains. */
export function isWithin(name: string, parent: string): boolean {
  return name === parent || name.endsWith(`.${parent}`);
}
