// Whether a header block carries one of our own DKIM signatures, and the Message-ID it covers: the
// proof a feedback report needs when it names a message by its Message-ID alone (inbound-processor.ts).
// Only the header hash is checked (RFC 6376 §3.7, the b= tag): a report's copy of the original often
// lacks its body, or has it cut short, so the body hash (bh=) is taken as written. A signature still
// proves the headers it lists, Message-ID among them, were signed with a key of ours: nobody without
// the key can make one for a message they choose.
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { DkimAlgorithmName } from '../db/schema.js';
import { headerFields, relaxedHeader, type HeaderField } from './sign.js';

/** A public key of ours for a signing domain and selector, with its algorithm and account. */
export interface OurDkimKey {
  /** The DNS record's p= value (dkim_keys.public_key). */
  publicKey: string;
  algorithm: DkimAlgorithmName;
  /** null: the service's own key (the test domain). */
  accountId: string | null;
}

export type OurKeyLookup = (domain: string, selector: string) => Promise<OurDkimKey | undefined>;

/** What a verified signature of ours covers. */
export interface VerifiedHeaders {
  /** The Message-ID the signature covers, without angle brackets, lower case. */
  messageId: string;
  /** The signing key's account (null: the service's own). */
  accountId: string | null;
}

// At most this many DKIM-Signature fields are tried: a header block of thousands is an attack.
const MAX_SIGNATURES = 8;
// At most this many names in a signature's h=: ours list about 25. Anyone may write to fbl@, with one of
// our (public) d= and s= pairs and thousands of names: each name costs a look-up.
const MAX_SIGNED_NAMES = 64;
// Ed25519's SubjectPublicKeyInfo, before its raw 32-byte key (RFC 8410).
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * The first DKIM-Signature of ours in `headerBlock` that verifies over the headers it lists, Message-ID
 * among them (relaxed header canonicalization, as ours are made): what it covers; undefined when none
 * does. Never throws on what the block holds.
 */
export async function verifyOurHeaderSignature(
  headerBlock: string,
  ourKey: OurKeyLookup,
): Promise<VerifiedHeaders | undefined> {
  const fields = headerFields(headerBlock.replace(/\r?\n/g, '\r\n'));
  // Each name's fields, in order, found once (not once per name a signature lists).
  const byName = new Map<string, HeaderField[]>();
  for (const f of fields) {
    const same = byName.get(f.name);
    if (same) same.push(f);
    else byName.set(f.name, [f]);
  }
  const signatures = (byName.get('dkim-signature') ?? []).slice(0, MAX_SIGNATURES);
  for (const signature of signatures) {
    const verified = await verifyOne(signature, byName, ourKey);
    if (verified) return verified;
  }
  return undefined;
}

async function verifyOne(
  signature: HeaderField,
  byName: Map<string, HeaderField[]>,
  ourKey: OurKeyLookup,
): Promise<VerifiedHeaders | undefined> {
  const tags = tagList(signature.text.slice(signature.text.indexOf(':') + 1));
  const domain = tags.get('d')?.toLowerCase();
  const selector = tags.get('s')?.toLowerCase();
  const algorithm = tags.get('a')?.toLowerCase();
  const b = tags.get('b')?.replace(/\s+/g, '');
  const names = (tags.get('h') ?? '').split(':').map((n) => n.trim().toLowerCase());
  if (!domain || !selector || !b || tags.get('v') !== '1') return undefined;
  if (!(tags.get('c') ?? 'simple/simple').toLowerCase().startsWith('relaxed')) return undefined;
  if (names.length > MAX_SIGNED_NAMES || !names.includes('message-id')) return undefined;
  const key = await ourKey(domain, selector);
  if (!key || key.algorithm !== algorithm) return undefined;

  // RFC 6376 §5.4.2: a name listed n times takes its instances from the bottom up; a listing with none
  // left matches nothing.
  const used = new Map<string, number>();
  let data = '';
  let messageId: string | undefined;
  for (const name of names) {
    const instances = (byName.get(name) ?? []).filter((f) => f !== signature);
    const taken = used.get(name) ?? 0;
    used.set(name, taken + 1);
    const field = instances[instances.length - 1 - taken];
    if (!field) continue;
    data += relaxedHeader(field.text);
    if (name === 'message-id' && messageId === undefined) messageId = messageIdOf(field);
  }
  if (messageId === undefined) return undefined;
  // The signature field itself, its b= value emptied, without its CRLF (RFC 6376 §3.7).
  const unsigned = signature.text.replace(/(^|;)(\s*b\s*=)[^;]*/i, '$1$2');
  data += relaxedHeader(unsigned).slice(0, -2);
  const signed = Buffer.from(data, 'latin1');
  try {
    const sig = Buffer.from(b, 'base64');
    const ok =
      algorithm === 'rsa-sha256'
        ? verify('sha256', signed, publicKeyOf(key), sig)
        : verify(null, createHash('sha256').update(signed).digest(), publicKeyOf(key), sig);
    return ok ? { messageId, accountId: key.accountId } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The b= values (white space removed) of the DKIM-Signature fields in `headerBlock`, at most
 * MAX_SIGNATURES, and the first Message-ID (without angle brackets, lower case). A report whose copy of
 * the original had its recipient redacted (RFC 6590: feedback loops replace the To address's local
 * part) no longer verifies, but still quotes the signatures as sent: one equal to a signature in the
 * copy txmail kept of that message proves the report's sender had the original, as a verified one
 * does (inbound-processor.ts). Never throws on what the block holds.
 */
export function quotedSignatures(headerBlock: string): { messageId: string | undefined; values: string[] } {
  const fields = headerFields(headerBlock.replace(/\r?\n/g, '\r\n'));
  const values: string[] = [];
  let messageId: string | undefined;
  for (const f of fields) {
    if (f.name === 'message-id' && messageId === undefined) messageId = messageIdOf(f);
    if (f.name !== 'dkim-signature' || values.length >= MAX_SIGNATURES) continue;
    const b = tagList(f.text.slice(f.text.indexOf(':') + 1))
      .get('b')
      ?.replace(/\s+/g, '');
    // A real signature: RSA-2048's is 344 base64 characters, Ed25519's 88.
    if (b !== undefined && b.length >= 64) values.push(b);
  }
  return { messageId, values };
}

/** A Message-ID field's id, without angle brackets, lower case. */
function messageIdOf(field: HeaderField): string | undefined {
  return /<([^<>\s]{1,250})>/.exec(field.text)?.[1]?.toLowerCase();
}

function publicKeyOf(key: OurDkimKey): KeyObject {
  const raw = Buffer.from(key.publicKey, 'base64');
  return key.algorithm === 'ed25519-sha256'
    ? createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, raw]), format: 'der', type: 'spki' })
    : createPublicKey({ key: raw, format: 'der', type: 'spki' });
}

/** A DKIM tag list (RFC 6376 §3.2): `v=1; a=rsa-sha256; …`, folding white space removed around tags. */
function tagList(value: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    if (!tags.has(name)) tags.set(name, part.slice(eq + 1).trim());
  }
  return tags;
}
