// One blocklist look-up over DNS: the A record decides; a listing's TXT record says why (the list's
// words, capped as any peer's text is, and only asked for when there is a listing).
import { DnsError } from '../dns/resolver.js';
import { peerText } from '../peer-text.js';
import { verdictOf, type LookupOutcome, type Verdict } from './query.js';

/** The part of the DNS resolver (dns/resolver.ts) a look-up uses. */
export interface BlocklistDns {
  a(name: string): Promise<string[]>;
  txt(name: string): Promise<string[]>;
}

/** Longest reason kept from a list's TXT records. */
export const REASON_MAX = 300;

export async function lookUp(
  dns: BlocklistDns,
  name: string,
): Promise<{ verdict: Verdict; reason: string | null }> {
  let outcome: LookupOutcome;
  try {
    outcome = { addresses: await dns.a(name) };
  } catch (err) {
    if (!(err instanceof DnsError)) throw err;
    outcome = { failure: err.failure, message: err.message };
  }
  const verdict = verdictOf(outcome);
  if (verdict.kind !== 'listed') return { verdict, reason: null };
  let reason: string | null = null;
  try {
    const texts = await dns.txt(name);
    if (texts.length > 0) reason = peerText(texts.join(' / '), REASON_MAX);
  } catch (err) {
    // A listing without a TXT record is still a listing.
    if (!(err instanceof DnsError)) throw err;
  }
  return { verdict, reason };
}
