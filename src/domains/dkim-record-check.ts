// Does a DKIM key record (RFC 6376 §3.6.1) publish the expected public key? And, for a key that is not
// the domain's verified one (a rotation's pending key, an Ed25519 key), what its name answers in DNS.
import { DnsError, type DnsResolver } from '../dns/resolver.js';
import type { DkimAlgorithmName, DkimRecordStatus } from '../db/schema.js';

export interface DkimRecordMatch {
  matches: boolean;
  /** Why a record that looks like a DKIM key does not match. */
  problem?: string;
}

export function matchDkimRecord(
  value: string,
  expectedPublicKey: string,
  algorithm: DkimAlgorithmName = 'rsa-sha256',
): DkimRecordMatch {
  const tags = new Map<string, string>();
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) tags.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  const v = tags.get('v');
  if (v !== undefined && v !== 'DKIM1') return { matches: false, problem: `v=${v} (must be DKIM1)` };
  // k= defaults to rsa (RFC 6376 §3.6.1); an Ed25519 key must say so (RFC 8463 §4.2).
  const expectedK = algorithm === 'ed25519-sha256' ? 'ed25519' : 'rsa';
  const k = tags.get('k');
  if ((k ?? 'rsa').toLowerCase() !== expectedK)
    return { matches: false, problem: `k=${k ?? '(none, meaning rsa)'} (must be ${expectedK})` };
  const p = tags.get('p');
  if (p === undefined) return { matches: false, problem: 'no p= tag' };
  // Whitespace may appear inside the base64 key (folding by DNS providers); it carries no meaning.
  const key = p.replace(/\s+/g, '');
  if (key === '') return { matches: false, problem: 'p= is empty (the key is revoked)' };
  if (key !== expectedPublicKey) return { matches: false, problem: 'p= is a different public key' };
  return { matches: true };
}

export interface DkimKeyLookup {
  status: DkimRecordStatus;
  /** What was wrong, or why the look-up failed: `problems` in one line. */
  problem: string | null;
  problems: string[];
  /** The records the DNS answered at the name that matter: the DKIM keys, or all when they decide. */
  seen: string[];
}

/**
 * Looks up a key's record at `name`: found only when exactly one TXT record answers there and it
 * publishes the key. A temporary DNS failure is `error`, never `missing`. The rule for the domain's
 * verified key (domain-check.ts) and for a rotation's pending key or an Ed25519 key alike.
 */
export async function lookUpDkimKey(
  dns: DnsResolver,
  name: string,
  publicKey: string,
  algorithm: DkimAlgorithmName,
): Promise<DkimKeyLookup> {
  const result = (status: DkimKeyLookup['status'], seen: string[], problems: string[] = []) => ({
    status,
    problem: problems.length > 0 ? problems.join('; ') : null,
    problems,
    seen,
  });
  let txt: string[];
  try {
    txt = await dns.txt(name);
  } catch (err) {
    if (err instanceof DnsError && err.failure !== 'temporary') return result('missing', []);
    return result('error', [], [err instanceof Error ? err.message : String(err)]);
  }
  const keys = txt.filter((t) => /(^|;)\s*(v=DKIM1|p=)/i.test(t));
  if (keys.length === 0) return result('missing', txt);
  const matches = keys.map((k) => matchDkimRecord(k, publicKey, algorithm));
  if (!matches.some((m) => m.matches)) {
    return result('wrong', keys, [...new Set(matches.map((m) => m.problem!))]);
  }
  // RFC 6376 §3.6.2.2 lets a verifier pick any one of several records, and common verifiers take the
  // first the resolver answers, in no fixed order: another record here fails some messages at random.
  if (txt.length > 1) {
    return result('wrong', txt, [
      `${txt.length} TXT records at ${name}; receivers may read any one of them: keep only this key's`,
    ]);
  }
  return result('found', keys);
}
