// DKIM-signs a composed message (RFC 6376, relaxed/relaxed) and returns it with its DKIM-Signature
// headers prepended: rsa-sha256, and ed25519-sha256 beside it (RFC 8463) when the domain has an
// Ed25519 key whose record is published. The body hash is computed once and shared by the signatures;
// each signature hashes the headers itself. Private keys arrive parsed (DkimKeys caches the KeyObject):
// parsing an RSA-2048 PEM costs about as much as the signature. ARCHITECTURE.md, "DKIM".
import { createHash, sign, type KeyObject } from 'node:crypto';
import type { DkimAlgorithmName } from '../db/schema.js';
import { trimWspEnd } from '../trim-wsp.js';

/** One key that signs: the algorithm follows from the key's type (RSA or Ed25519). */
export interface DkimKey {
  selector: string;
  privateKey: KeyObject;
}

/**
 * What signs one domain's mail: its RSA key (the one its verification is based on) and, beside it,
 * other active keys (an Ed25519 key), each adding a signature of its own after the first.
 */
export interface SigningKey extends DkimKey {
  domain: string;
  beside?: DkimKey[];
}

/**
 * The header fields signed, each listed once per instance plus once more (oversigned, RFC 6376 §8.15):
 * a receiver that sees a second From (or Subject, or a Reply-To added where there was none) sees a
 * failing signature instead of a choice of which one to show.
 */
const OVERSIGNED = [
  'From',
  'To',
  'Subject',
  'Date',
  'Message-ID',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'Reply-To',
  // Who the message is from as the mailbox provider's feedback loop counts it: a forger must not
  // be able to charge complaints to another tenant.
  'Feedback-ID',
];
/**
 * Signed (and oversigned) when the message has them; their absence is no forgery worth a listing. The
 * TLS-Report-* fields are the TLS reports' (RFC 8460 §5.3 asks for them to be signed).
 */
const OVERSIGNED_WHEN_PRESENT = [
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
  'TLS-Report-Domain',
  'TLS-Report-Submitter',
];

const CRLF = Buffer.from('\r\n');

/**
 * Signs `raw` (CRLF line endings, as compose.ts writes it) with `key` and the keys beside it, at
 * `time` (ms; the t= tag, in seconds). Throws when a key cannot sign: mail never leaves unsigned.
 */
export function signMessage(raw: Buffer, key: SigningKey, time: number = Date.now()): Buffer {
  const split = raw.indexOf('\r\n\r\n');
  // The header block with the CRLF ending its last field; the body after the empty line.
  const head = split < 0 ? raw.toString('latin1') : raw.toString('latin1', 0, split + 2);
  const bh = bodyHash(split < 0 ? Buffer.alloc(0) : raw.subarray(split + 4));
  const { names, data } = signedHeaders(head);
  const t = Math.floor(time / 1000);
  const signatures = [key, ...(key.beside ?? [])].map((k) =>
    signatureField(key.domain, k, t, names, data, bh),
  );
  const fields = signatures.join('');
  // Its own ArrayBuffer (never a slice of Node's shared pool): a build thread hands it to the event
  // loop by transfer, without a copy (delivery/build-thread.ts).
  const out = Buffer.allocUnsafeSlow(fields.length + raw.length);
  out.write(fields, 0, 'latin1');
  raw.copy(out, fields.length);
  return out;
}

/** The relaxed body hash (RFC 6376 §3.4.4, §3.7), base64. */
export function bodyHash(body: Buffer): string {
  const hash = createHash('sha256');
  // The common case, a body with no white space to reduce (nodemailer's base64 and quoted-printable
  // lines): only the empty lines at its end go, without copying it.
  const plain =
    body.indexOf(' \r\n') < 0 &&
    body.indexOf('\t') < 0 &&
    body.indexOf('  ') < 0 &&
    body[body.length - 1] !== 0x20;
  const b = plain ? body : relaxedBodyLines(body);
  let end = b.length;
  while (end >= 2 && b[end - 2] === 0x0d && b[end - 1] === 0x0a) end -= 2;
  if (end > 0) hash.update(b.subarray(0, end)).update(CRLF);
  return hash.digest('base64');
}

/**
 * WSP runs reduced to one SP, WSP at the end of lines (before CRLF, or at the end of the body) removed,
 * in one pass over the bytes: a regular expression for the line ends retried a long run of white space
 * from each of its positions (quadratic; test/dkim-sign.test.ts).
 */
function relaxedBodyLines(body: Buffer): Buffer {
  const out = Buffer.allocUnsafe(body.length);
  let n = 0;
  let wsp = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === 0x20 || c === 0x09) {
      wsp = true;
      continue;
    }
    if (wsp) {
      if (c !== 0x0d || body[i + 1] !== 0x0a) out[n++] = 0x20;
      wsp = false;
    }
    out[n++] = c;
  }
  return out.subarray(0, n);
}

export interface HeaderField {
  /** Lower-case name. */
  name: string;
  /** The field as written, folded, without its final CRLF. */
  text: string;
}

export function headerFields(head: string): HeaderField[] {
  const fields: HeaderField[] = [];
  for (const line of head.split('\r\n')) {
    if (line === '') continue;
    const last = fields[fields.length - 1];
    if ((line[0] === ' ' || line[0] === '\t') && last) {
      last.text += '\r\n' + line;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue; // not a header field; nothing a verifier would find by name either
    fields.push({ name: line.slice(0, colon).trimEnd().toLowerCase(), text: line });
  }
  return fields;
}

/** A header field in relaxed canonical form (RFC 6376 §3.4.2), with its CRLF. */
export function relaxedHeader(field: string): string {
  const colon = field.indexOf(':');
  const name = trimWspEnd(field.slice(0, colon)).toLowerCase();
  const value = field
    .slice(colon + 1)
    .replace(/\r\n/g, '')
    .replace(/[ \t]+/g, ' ')
    .replace(/^ | $/g, '');
  return `${name}:${value}\r\n`;
}

/**
 * The h= list and the canonical header data it covers. A name listed n times takes the message's
 * instances from the bottom up (RFC 6376 §5.4.2); its extra listing matches nothing, which is what
 * makes an added instance break the signature.
 */
function signedHeaders(head: string): { names: string[]; data: string } {
  const fields = headerFields(head);
  const names: string[] = [];
  let data = '';
  const add = (name: string, always: boolean) => {
    const lower = name.toLowerCase();
    const instances = fields.filter((f) => f.name === lower);
    if (!always && instances.length === 0) return;
    for (let i = instances.length - 1; i >= 0; i--) {
      names.push(name);
      data += relaxedHeader(instances[i]!.text);
    }
    names.push(name);
  };
  for (const n of OVERSIGNED) add(n, true);
  for (const n of OVERSIGNED_WHEN_PRESENT) add(n, false);
  return { names, data };
}

/** The largest line of a signature header; RFC 5322 §2.1.1 asks for 78 where practical. */
const LINE = 78;

/** One DKIM-Signature field, folded, with its CRLF. */
function signatureField(
  domain: string,
  key: DkimKey,
  t: number,
  names: string[],
  headerData: string,
  bh: string,
): string {
  const type = key.privateKey.asymmetricKeyType;
  if (type !== 'rsa' && type !== 'ed25519') throw new Error(`a ${type} key cannot sign DKIM`);
  const a: DkimAlgorithmName = type === 'rsa' ? 'rsa-sha256' : 'ed25519-sha256';
  const field =
    `DKIM-Signature: v=1; a=${a}; c=relaxed/relaxed; d=${domain};\r\n` +
    ` s=${key.selector}; t=${t};\r\n` +
    foldList(' h=', names) +
    `;\r\n bh=${bh};\r\n b=`;
  // The signature covers the headers and then this field itself with b= empty, without its CRLF
  // (RFC 6376 §3.7).
  const signed = Buffer.from(headerData + relaxedHeader(field).slice(0, -2), 'latin1');
  const b =
    type === 'rsa'
      ? sign('sha256', signed, key.privateKey)
      : // RFC 8463 §3: Ed25519 signs the SHA-256 hash of the data (PureEdDSA over the digest).
        sign(null, createHash('sha256').update(signed).digest(), key.privateKey);
  return field + foldBase64(b.toString('base64'), ' b='.length) + '\r\n';
}

/** `prefix` and the names joined by ':', folded after a colon before a line passes LINE. */
function foldList(prefix: string, names: string[]): string {
  let out = prefix;
  let line = prefix.length;
  names.forEach((n, i) => {
    const token = i < names.length - 1 ? `${n}:` : n;
    if (line + token.length > LINE - 1 && line > prefix.length) {
      out += '\r\n ';
      line = 1;
    }
    out += token;
    line += token.length;
  });
  return out;
}

/** base64 folded into lines of at most LINE characters (white space inside b= carries no meaning). */
function foldBase64(value: string, used: number): string {
  const first = LINE - used;
  let out = value.slice(0, first);
  for (let i = first; i < value.length; i += LINE - 1) out += '\r\n ' + value.slice(i, i + LINE - 1);
  return out;
}
