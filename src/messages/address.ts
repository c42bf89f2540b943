// Parsing of the `from` and `to` fields: `addr@domain` or `Display Name <addr@domain>`.
// Deliberately stricter than RFC 5322 (no comments, groups, quoted local parts or domain literals):
// transactional mail goes to ordinary mailboxes, and every form we accept must survive SMTP and MIME.
//
// The input comes from outside and may be anything up to the 10 MiB body limit, so nothing here may
// cost more than one pass over it: a field longer than any address we accept is refused before it is
// looked at, the display name and the brackets are found with index scans (no pattern that can
// backtrack over the whole field), and each remaining pattern runs on a part already capped by length.
import { domainToASCII } from 'node:url';

export interface Address {
  /** Display name ('' when none), unquoted; MIME encoding happens when the message is built. */
  name: string;
  /** local@domain with the domain in ASCII (punycode), lower case. */
  email: string;
  domain: string;
}

export type AddressResult = { ok: true; address: Address } | { ok: false; reason: string };

/** Display names longer than this are refused (a name, not a paragraph). */
export const MAX_NAME_LENGTH = 256;
/** RFC 5321 §4.5.3.1.1: a local part is at most 64 octets (ours are ASCII, so characters). */
export const MAX_LOCAL_PART_LENGTH = 64;
/** RFC 5321 §4.5.3.1.2: a domain is at most 255 octets; longer text is not looked up at all. */
export const MAX_DOMAIN_LENGTH = 255;
/**
 * The longest `from` / `to` value considered at all: the longest name we accept quoted with every
 * character escaped (2 × 256 + 2), a space, and `<local@domain>` at the RFC limits (64 + 1 + 255 + 2),
 * with room for surrounding spaces. The send schema refuses longer values before any parsing.
 */
export const MAX_ADDRESS_FIELD_LENGTH = 1024;

// RFC 5322 §3.2.3 atext, as dot-atom: the only unquoted local parts. Linear: the dot separates the
// repetitions, so there is one way to match; and it only runs on at most 64 characters.
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const PLAIN_ASCII = /^[A-Za-z0-9.-]+$/;
// "…"@domain: one quoted string (no quote or backslash inside, so one way to match) and one domain.
const QUOTED_LOCAL = /^"[^"\\]*"@[^\s@",;<>]+$/;

/** Parses one address; `reason` completes the sentence `"to" …` in an error message. */
export function parseAddress(input: string): AddressResult {
  if (input.length > MAX_ADDRESS_FIELD_LENGTH) {
    return fail(`must be at most ${MAX_ADDRESS_FIELD_LENGTH} characters`);
  }
  if (/[\r\n\0]/.test(input)) return fail('must not contain line breaks or NUL characters');
  const value = input.trim();
  if (value === '') return fail('must not be empty');

  let name = '';
  let addr = value;
  const open = angleAddressStart(value);
  if (open >= 0) {
    name = unquoteName(value.slice(0, open).trim());
    addr = value.slice(open + 1, -1).trim();
    if (name.length > MAX_NAME_LENGTH) return fail(`has a display name over ${MAX_NAME_LENGTH} characters`);
  } else if (value.includes('<') || value.includes('>')) {
    return fail('is not an email address (expected addr@domain or Name <addr@domain>)');
  }
  // A quoted local part (RFC 5321 §4.1.2 Quoted-string, "jane doe"@x) is valid, and rare enough that
  // txmail does not send to one: said so, not read as two addresses for its space.
  if (QUOTED_LOCAL.test(addr)) {
    return fail('has a quoted local part ("…"@domain); txmail sends only to unquoted ones');
  }
  if (/[,;\s]/.test(addr)) {
    return fail('must be exactly one email address (one recipient per call)');
  }

  const at = addr.lastIndexOf('@');
  if (at <= 0 || at === addr.length - 1) return fail(`is not an email address: "${addr}"`);
  const local = addr.slice(0, at);
  const domain = asciiDomain(addr.slice(at + 1));
  // Said apart, since a person can act on each: letters txmail cannot send to (whatever the length),
  // too long (in ASCII, characters are octets), the rest.
  if (NON_ASCII.test(local)) {
    return fail(
      `has a local part (before the @) with letters outside ASCII: "${local}" (txmail does not send SMTPUTF8 mail)`,
    );
  }
  if (local.length > MAX_LOCAL_PART_LENGTH) {
    return fail(
      `has a local part (before the @) of ${local.length} characters; at most ${MAX_LOCAL_PART_LENGTH}`,
    );
  }
  if (!DOT_ATOM.test(local)) return fail(`has an invalid local part: "${local}"`);
  if (domain === undefined) return fail(`has an invalid domain: "${addr.slice(at + 1)}"`);
  const email = `${local}@${domain}`;
  if (email.length > 254) return fail('is longer than 254 characters');
  return { ok: true, address: { name, email, domain } };
}

/**
 * Where the `<` of a final `<addr>` starts, or -1 when the value does not end in one. The bracketed
 * part holds no `<` or `>`, so its `<` is the last one in the value; everything before it is the name
 * (which may itself hold brackets, as it always could).
 */
function angleAddressStart(value: string): number {
  if (!value.endsWith('>')) return -1;
  const open = value.lastIndexOf('<');
  if (open < 0 || value.indexOf('>', open) !== value.length - 1) return -1;
  return open;
}

/**
 * An address as the log, its CSV export and webhook payloads show it: `Name <local@domain>`, or the
 * address alone without a name. For people to read; sendableAddress is the form the send route parses.
 */
export function displayAddress(name: string, email: string): string {
  return name === '' ? email : `${name} <${email}>`;
}

/**
 * An address as the send route reads it (a re-send writes the original's back): the display name
 * quoted, its quotes and backslashes escaped, so parseAddress gives back the same name and address.
 */
export function sendableAddress(name: string, email: string): string {
  return name === '' ? email : `"${name.replace(/["\\]/g, (c) => `\\${c}`)}" <${email}>`;
}

/** The ASCII form of a (possibly internationalised) domain, or undefined when it is not a usable one. */
export function asciiDomain(input: string): string | undefined {
  if (input.length > MAX_DOMAIN_LENGTH) return undefined;
  if (input.startsWith('[')) return undefined; // domain literals: not for transactional mail
  const trimmed = input.endsWith('.') ? input.slice(0, -1) : input;
  // Plain ASCII needs no IDNA mapping (the common case, and domainToASCII is a tenth of the parse);
  // anything else, or an A-label that must be checked, goes through it.
  const ascii = (
    PLAIN_ASCII.test(trimmed) && !/xn--/i.test(trimmed) ? trimmed : domainToASCII(trimmed)
  ).toLowerCase();
  if (ascii === '' || ascii.length > 253) return undefined;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return undefined;
  const tld = labels[labels.length - 1]!;
  if (!/^([a-z]{2,63}|xn--[a-z0-9-]+)$/.test(tld)) return undefined;
  return ascii;
}

/**
 * A name in double quotes (RFC 5322 §3.2.4 quoted-string: a backslash escapes the next character)
 * loses its quotes and escapes; anything else is taken as written.
 */
function unquoteName(name: string): string {
  if (name.length < 2 || !name.startsWith('"') || !name.endsWith('"')) return name;
  let out = '';
  for (let i = 1; i < name.length; i++) {
    const c = name[i]!;
    if (c === '\\') {
      if (i + 1 >= name.length) return name; // a lone backslash at the end: not a quoted string
      out += name[++i]!;
    } else if (c === '"') {
      return i === name.length - 1 ? out : name; // a quote before the end: not one quoted string
    } else {
      out += c;
    }
  }
  return name; // the closing quote was escaped
}

function fail(reason: string): AddressResult {
  return { ok: false, reason };
}
