// Does a DKIM key record (RFC 6376 §3.6.1) publish the expected public key?
export interface DkimRecordMatch {
  matches: boolean;
  /** Why a record that looks like a DKIM key does not match. */
  problem?: string;
}

export function matchDkimRecord(value: string, expectedPublicKey: string): DkimRecordMatch {
  const tags = new Map<string, string>();
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) tags.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  const v = tags.get('v');
  if (v !== undefined && v !== 'DKIM1') return { matches: false, problem: `v=${v} (must be DKIM1)` };
  const k = tags.get('k');
  if (k !== undefined && k.toLowerCase() !== 'rsa')
    return { matches: false, problem: `k=${k} (must be rsa)` };
  const p = tags.get('p');
  if (p === undefined) return { matches: false, problem: 'no p= tag' };
  // Whitespace may appear inside the base64 key (folding by DNS providers); it carries no meaning.
  const key = p.replace(/\s+/g, '');
  if (key === '') return { matches: false, problem: 'p= is empty (the key is revoked)' };
  if (key !== expectedPublicKey) return { matches: false, problem: 'p= is a different public key' };
  return { matches: true };
}
