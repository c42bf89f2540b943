// The two texts of MTA-STS (RFC 8461), parsed strictly: the `_mta-sts.<domain>` TXT record that says a
// policy exists and names its version (§3.1), and the policy file served over HTTPS (§3.2). Pure.
// ARCHITECTURE.md, "TLS policy".
import { trimWspEnd } from '../trim-wsp.js';

export type StsMode = 'enforce' | 'testing' | 'none';

export interface StsPolicy {
  mode: StsMode;
  /** The `mx` patterns, lower case, in the order given (`mx.example.com`, `*.example.net`). */
  mx: string[];
  /** Seconds the policy may be cached (at most MAX_AGE_LIMIT). */
  maxAge: number;
  /** The policy's lines without their line ends (RFC 8460 policy-string), blank lines left out. */
  lines: string[];
}

/** RFC 8461 §3.2: max_age is at most 31557600 seconds (about a year). */
export const MAX_AGE_LIMIT = 31_557_600;

/** RFC 8461 §3.1: `id` is 1 to 32 letters and digits. */
const ID = /^[A-Za-z0-9]{1,32}$/;

/**
 * The policy id of a domain's `_mta-sts` TXT records: records not starting with `v=STSv1;` are
 * ignored; not exactly one left, or one without a valid id, is no policy (RFC 8461 §3.1).
 */
export function parseStsRecord(records: readonly string[]): { id: string } | { error: string } {
  const sts = records.filter((r) => /^v=STSv1\s*(;|$)/.test(r));
  if (sts.length === 0) return { error: 'no v=STSv1 record' };
  if (sts.length > 1) return { error: `${sts.length} v=STSv1 records` };
  const fields = new Map<string, string>();
  for (const part of sts[0]!.split(';')) {
    const field = part.trim();
    if (field === '') continue;
    const eq = field.indexOf('=');
    if (eq <= 0) return { error: `malformed field "${field.slice(0, 40)}"` };
    const key = field.slice(0, eq).trim();
    if (!fields.has(key)) fields.set(key, field.slice(eq + 1).trim());
  }
  const id = fields.get('id');
  if (id === undefined) return { error: 'no id' };
  if (!ID.test(id)) return { error: `invalid id "${id.slice(0, 40)}"` };
  return { id };
}

/** An `mx` pattern: a host name, or `*.` and a host name (RFC 8461 §3.2, §4.1). */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const MX_PATTERN = new RegExp(`^(?:\\*\\.)?${LABEL}(?:\\.${LABEL})+\\.?$`);

/**
 * A policy line's key (RFC 8461 §3.2 sts-policy-ext-name, which the known keys are instances of: a
 * letter or digit, then up to 31 letters, digits, "_", "-" or "."), and its ":". The white space and the
 * value after it are read by `policyLine`, not by the expression: `:[ \t]*(.*)$` gives the run of white
 * space back one character at a time when the value holds a lone CR (which `.` does not match), and
 * rescans it from each, in time the square of its length (test/unit/mta-sts-policy.test.ts).
 */
const KEY = /^([A-Za-z0-9][A-Za-z0-9_.-]{0,31}):/;
/** A line terminator other than the LF lines are split at: not allowed inside a value. */
const LINE_BREAK = /[\r\n\u2028\u2029]/;

/**
 * One policy line's key and value (leading spaces and tabs skipped); undefined for a line that is not
 * `key: value` or whose value breaks a line. Also reads the policy lines a TLS report quotes.
 */
export function policyLine(line: string): { key: string; value: string } | undefined {
  const m = KEY.exec(line);
  if (!m) return undefined;
  let start = m[0].length;
  while (start < line.length && (line[start] === ' ' || line[start] === '\t')) start++;
  const value = line.slice(start);
  return LINE_BREAK.test(value) ? undefined : { key: m[1]!, value };
}

/**
 * Parses a policy file. Strict where the RFC is: `version: STSv1`, `mode` one of three, `max_age` digits
 * up to MAX_AGE_LIMIT, at least one valid `mx` unless the mode is `none`; each of version, mode and
 * max_age once. Unknown keys are ignored (§3.2: for extensions).
 */
export function parseStsPolicy(text: string): StsPolicy | { error: string } {
  const lines = text.split(/\r?\n/).map(trimWspEnd);
  const kept: string[] = [];
  const single = new Map<string, string>();
  const mx: string[] = [];
  for (const line of lines) {
    if (line === '') continue;
    const field = policyLine(line);
    if (!field) return { error: `malformed line "${line.slice(0, 60)}"` };
    kept.push(line);
    const { key, value } = field;
    if (key === 'mx') {
      const pattern = value.toLowerCase();
      if (!MX_PATTERN.test(pattern)) return { error: `invalid mx pattern "${value.slice(0, 60)}"` };
      mx.push(pattern.replace(/\.$/, ''));
    } else if (key === 'version' || key === 'mode' || key === 'max_age') {
      if (single.has(key)) return { error: `${key} given twice` };
      single.set(key, value);
    }
  }
  const version = single.get('version');
  if (version !== 'STSv1') return { error: version === undefined ? 'no version' : `version "${version}"` };
  const mode = single.get('mode');
  if (mode !== 'enforce' && mode !== 'testing' && mode !== 'none') {
    return { error: mode === undefined ? 'no mode' : `unknown mode "${mode.slice(0, 20)}"` };
  }
  const age = single.get('max_age');
  if (age === undefined) return { error: 'no max_age' };
  if (!/^\d{1,10}$/.test(age)) return { error: `invalid max_age "${age.slice(0, 20)}"` };
  const maxAge = Number(age);
  if (maxAge > MAX_AGE_LIMIT) return { error: `max_age ${maxAge} exceeds ${MAX_AGE_LIMIT}` };
  if (mode !== 'none' && mx.length === 0) return { error: `mode ${mode} without mx` };
  return { mode, mx, maxAge, lines: kept };
}
