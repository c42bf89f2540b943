// What one delivery attempt adds to the TLS-RPT counts (RFC 8460 §4): one session per connection,
// keyed by the UTC day, the recipient domain's policy (type and lines), the result, the receiving host
// and address and the sending address. Pure. ARCHITECTURE.md, "TLS policy".
import { createHash } from 'node:crypto';
import { utcDay } from '../clock.js';
import type { TlsRequirement, TlsSessionReport } from '../delivery/tls-policy.js';

export type ReportPolicyType = 'sts' | 'no-policy-found';

/** One attempt as the Deliverer reports it. */
export interface AttemptTls {
  recipientDomain: string;
  requirement: TlsRequirement;
  sourceIp: string | null;
  sessions: TlsSessionReport[];
}

export interface SessionKey {
  day: string;
  policyDomain: string;
  policyType: ReportPolicyType;
  /** The policy's lines (RFC 8460 policy-string); empty without a policy. */
  policyStrings: string[];
  /** 'success' or an RFC 8460 §4.3 result type. */
  resultType: string;
  /** '' when unknown. */
  mxHost: string;
  receivingIp: string;
  sendingIp: string;
}

export interface SessionCount extends SessionKey {
  sessions: number;
}

/** The sessions an attempt adds, each once. */
export function sessionKeys(attempt: AttemptTls, now: number): SessionKey[] {
  const { requirement } = attempt;
  const failure = requirement.policyFailure;
  // The MTA-STS mode, not the policy's name: a sending domain's `required` takes the name when the
  // recipient's policy only tests, and the sessions are still that policy's (RFC 8460 §4.3).
  const sts =
    requirement.sts !== undefined ||
    requirement.policy === 'mta-sts' ||
    requirement.policy === 'mta-sts-testing';
  const base = {
    day: utcDay(now),
    policyDomain: (requirement.policyDomain ?? attempt.recipientDomain).toLowerCase().replace(/\.$/, ''),
    // A policy that could not be fetched is reported as the domain's STS policy failing (RFC 8460 §4.3.2.2).
    policyType: (sts || failure ? 'sts' : 'no-policy-found') as ReportPolicyType,
    policyStrings: sts ? (requirement.policyStrings ?? []) : [],
    sendingIp: attempt.sourceIp ?? '',
  };
  if (attempt.sessions.length === 0) {
    // No connection was made; a policy failure is still worth telling the domain about.
    return failure ? [{ ...base, resultType: failure.type, mxHost: '', receivingIp: '' }] : [];
  }
  return attempt.sessions.map((s) => ({
    ...base,
    resultType: s.ok ? (failure ? failure.type : 'success') : (s.failure ?? 'validation-failure'),
    mxHost: s.mxHost.toLowerCase().replace(/\.$/, ''),
    receivingIp: s.receivingIp,
  }));
}

const sha256 = (strings: readonly string[]) =>
  createHash('sha256').update(JSON.stringify(strings)).digest('hex');
/** The hash of each policy's lines, by the lines' array: one per policy a process holds. */
const hashes = new WeakMap<readonly string[], string>();
/** No policy (most sessions): no lines, each time a new empty array. */
const NO_LINES_HASH = sha256([]);

/**
 * SHA-256 (hex) of a policy's lines: the key of the lines in the table, and of the policy in the
 * in-memory counts. Worked out once per policy: every session under a policy carries the same array of
 * lines (the MTA-STS policies' cache hands it to each delivery's requirement; nothing changes it).
 */
export function policyHash(strings: readonly string[]): string {
  if (strings.length === 0) return NO_LINES_HASH;
  let hash = hashes.get(strings);
  if (hash === undefined) {
    hash = sha256(strings);
    hashes.set(strings, hash);
  }
  return hash;
}

/** One string per distinct key (the in-memory map's key). */
export function keyText(k: SessionKey): string {
  return JSON.stringify([
    k.day,
    k.policyDomain,
    k.policyType,
    policyHash(k.policyStrings),
    k.resultType,
    k.mxHost,
    k.receivingIp,
    k.sendingIp,
  ]);
}
