// Parsing of the `from` and `to` fields: `addr@domain` or `Display Name <addr@domain>`.
// Deliberately stricter than RFC 5322 (no comments, groups, quoted local parts or domain literals):
// transactional mail goes to ordinary mailboxes, and every form we accept must survive SMTP and MIME.
import { domainToASCII } from 'node:url';

export interface Address {
  /** Display name ('' when none), unquoted; MIME encoding happens when the message is built. */
  name: string;
  /** local@domain with the domain in ASCII (punycode), lower case. */
  email: string;
  domain: string;
}

export type AddressResult = { ok: true; address: Address } | { ok: false; reason: string };

// RFC 5322 §3.2.3 atext, as dot-atom: the only unquoted local parts.
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const MAX_NAME_LENGTH = 256;
const PLAIN_ASCII = /^[A-Za-z0-9.-]+$/;

/** Parses one address; `reason` completes the sentence `"to" …` in an error message. */
export function parseAddress(input: string): AddressResult {
  if (/[\r\n\0]/.test(input)) return fail('must not contain line breaks or NUL characters');
  const value = input.trim();
  if (value === '') return fail('must not be empty');

  let name = '';
  let addr = value;
  const angle = /^(.*?)\s*<([^<>]*)>$/s.exec(value);
  if (angle) {
    name = unquoteName(angle[1]!.trim());
    addr = angle[2]!.trim();
    if (name.length > MAX_NAME_LENGTH) return fail(`has a display name over ${MAX_NAME_LENGTH} characters`);
  } else if (/[<>]/.test(value)) {
    return fail('is not an email address (expected addr@domain or Name <addr@domain>)');
  }
  if (/[,;]/.test(addr) || /\s/.test(addr)) {
    return fail('must be exactly one email address (one recipient per call)');
  }

  const at = addr.lastIndexOf('@');
  if (at <= 0 || at === addr.length - 1) return fail(`is not an email address: "${addr}"`);
  const local = addr.slice(0, at);
  const domain = asciiDomain(addr.slice(at + 1));
  if (local.length > 64 || !DOT_ATOM.test(local)) return fail(`has an invalid local part: "${local}"`);
  if (domain === undefined) return fail(`has an invalid domain: "${addr.slice(at + 1)}"`);
  const email = `${local}@${domain}`;
  if (email.length > 254) return fail('is longer than 254 characters');
  return { ok: true, address: { name, email, domain } };
}

/** The ASCII form of a (possibly internationalised) domain, or undefined when it is not a usable one. */
export function asciiDomain(input: string): string | undefined {
  if (input.startsWith('[')) return undefined; // domain literals: not for transactional mail
  const trimmed = input.replace(/\.$/, '');
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

function unquoteName(name: string): string {
  const quoted = /^"((?:[^"\\]|\\.)*)"$/s.exec(name);
  return quoted ? quoted[1]!.replace(/\\(.)/g, '$1') : name;
}

function fail(reason: string): AddressResult {
  return { ok: false, reason };
}
