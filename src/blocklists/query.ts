// What to look up and what the answer means (pure). A DNS blocklist publishes an A record for each
// listed entry under its zone: 127.0.0.x, where x is the list's reason code, and usually a TXT record
// with a sentence and a link. The name does not exist (NXDOMAIN) when the entry is not listed.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { DnsFailure } from '../dns/answers.js';
import type { BlocklistZone } from './zones.js';

/** What is looked up: a source address (in address zones) or a name the service uses (in name zones). */
export interface BlocklistTarget {
  target: string;
  kind: 'address' | 'name';
}

/** The name to query for a target in a zone: reversed IPv4 octets, reversed IPv6 nibbles, or the name. */
export function queryName(target: BlocklistTarget, zone: string): string {
  if (target.kind === 'name') return `${target.target.toLowerCase().replace(/\.$/, '')}.${zone}`;
  const family = isIP(target.target);
  if (family === 4) return `${target.target.split('.').reverse().join('.')}.${zone}`;
  if (family === 6) {
    // RFC 5782 §2.4: all 32 nibbles, least significant first.
    const hex = ipaddr.IPv6.parse(target.target)
      .toByteArray()
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    return `${[...hex].reverse().join('.')}.${zone}`;
  }
  throw new Error(`"${target.target}" is not an IP address`);
}

/** Which targets each zone is asked about: addresses in address zones, names in name zones. */
export function lookups(
  targets: readonly BlocklistTarget[],
  zones: readonly BlocklistZone[],
): { target: BlocklistTarget; zone: string; name: string }[] {
  return zones.flatMap((z) =>
    targets
      .filter((t) => (t.kind === 'address') === (z.kind === 'addresses'))
      .map((target) => ({ target, zone: z.zone, name: queryName(target, z.zone) })),
  );
}

/** The A look-up's result: its addresses, or how it failed (dns/resolver.ts). */
export type LookupOutcome = { addresses: readonly string[] } | { failure: DnsFailure; message: string };

export type Verdict =
  /** Listed: `answer` holds the A records (the list's reason codes). */
  | { kind: 'listed'; answer: string }
  | { kind: 'clear' }
  /** The list answered, but not with a verdict (query refused, not a blocklist answer). */
  | { kind: 'refused'; answer: string; error: string }
  /** No answer (timeout, SERVFAIL): nothing is known, the previous verdict stands. */
  | { kind: 'unknown'; error: string };

// Spamhaus answers in 127.255.255.0/24 when it did not serve the query (.252 a mistyped zone, .254 a
// public or open resolver, .255 too many queries): never a listing, and other lists do not use the
// range for listings either.
const REFUSALS: Record<string, string> = {
  '127.255.255.252': 'the list says the zone name is mistyped',
  '127.255.255.254': 'the list refuses queries from public or open resolvers',
  '127.255.255.255': 'the list refuses queries: too many from this resolver',
};

export function verdictOf(outcome: LookupOutcome): Verdict {
  if ('failure' in outcome) {
    // NODATA: the name exists without an A record (a TXT-only entry, a wildcard); not a listing.
    if (outcome.failure === 'nxdomain' || outcome.failure === 'nodata') return { kind: 'clear' };
    return { kind: 'unknown', error: outcome.message };
  }
  const addresses = [...new Set(outcome.addresses)].sort();
  if (addresses.length === 0) return { kind: 'clear' };
  const answer = addresses.join(', ');
  const refused = addresses.find((a) => a.startsWith('127.255.255.'));
  if (refused) {
    return {
      kind: 'refused',
      answer,
      error: REFUSALS[refused] ?? `the list answered ${refused}: query refused`,
    };
  }
  // A resolver that rewrites NXDOMAIN into its own address (a search page) answers outside 127/8.
  if (!addresses.every((a) => isIP(a) === 4 && a.startsWith('127.'))) {
    return { kind: 'refused', answer, error: 'the answer is not a blocklist answer (outside 127.0.0.0/8)' };
  }
  return { kind: 'listed', answer };
}

/** One (target, zone) as stored: the last verdict and how it was reached. */
export interface Listing {
  target: string;
  zone: string;
  kind: 'address' | 'name';
  listed: boolean;
  /** The A records of the listing; null when not listed. */
  answer: string | null;
  /** The list's TXT text (capped), when it gave one. */
  reason: string | null;
  /** Why the last look-up gave no verdict; null when it did. */
  error: string | null;
  /** The last look-up (whatever its result). */
  checkedAt: number;
  /** When the current listing was first seen; null when not listed. */
  listedSince: number | null;
}

export type ListingChange = 'listed' | 'delisted' | undefined;

/**
 * The stored listing after a look-up. Only `listed` and `clear` change the verdict: a refused query or
 * a look-up that failed leaves the previous verdict (a listing is not forgotten because a list was
 * unreachable for an hour, and none is invented from an error code).
 */
export function nextListing(
  previous: Listing | undefined,
  key: { target: BlocklistTarget; zone: string },
  verdict: Verdict,
  reason: string | null,
  now: number,
): { listing: Listing; change: ListingChange } {
  const base: Listing = previous ?? {
    target: key.target.target,
    zone: key.zone,
    kind: key.target.kind,
    listed: false,
    answer: null,
    reason: null,
    error: null,
    checkedAt: now,
    listedSince: null,
  };
  if (verdict.kind === 'refused' || verdict.kind === 'unknown') {
    return { listing: { ...base, error: verdict.error, checkedAt: now }, change: undefined };
  }
  if (verdict.kind === 'clear') {
    return {
      listing: {
        ...base,
        listed: false,
        answer: null,
        reason: null,
        error: null,
        checkedAt: now,
        listedSince: null,
      },
      change: base.listed ? 'delisted' : undefined,
    };
  }
  return {
    listing: {
      ...base,
      listed: true,
      answer: verdict.answer,
      reason,
      error: null,
      checkedAt: now,
      listedSince: base.listed ? (base.listedSince ?? now) : now,
    },
    change: base.listed ? undefined : 'listed',
  };
}
