// Where mail for a domain goes (RFC 5321 §5.1): MX records in preference order, equal preferences
// shuffled; no MX records → the domain itself (implicit MX); a null MX (RFC 7505) → the domain accepts
// no mail. Hosts on private or loopback addresses are refused unless explicitly allowed.
import type { BounceCategory } from '../bounce/categories.js';
import type { RouteDns } from '../dns/dns-cache.js';
import { DnsError } from '../dns/resolver.js';
import { isPublicAddress } from '../public-address.js';
import type { DeliveryTarget } from './transport.js';

export interface MxHost {
  name: string;
  addresses: string[];
}

/**
 * `category` of a failure (bounce/categories.ts): a domain that does not exist or accepts no mail is
 * `unknown_domain` (permanent: the address is suppressed); a DNS failure, or mail hosts txmail may not
 * reach, is `network_error` (it says nothing about the address).
 */
export type MxRoute =
  | { ok: true; hosts: MxHost[] }
  | { ok: false; permanent: boolean; enhanced: string; reason: string; category: BounceCategory };

/**
 * MX hosts tried for a domain, in preference order: more are never needed (Postfix tries 5 addresses,
 * smtp_mx_address_limit), and each costs look-ups.
 */
export const MAX_MX_HOSTS = 10;

export async function resolveMxRoute(
  domain: string,
  dns: RouteDns,
  options: { allowPrivate: boolean; random?: () => number },
): Promise<MxRoute> {
  const random = options.random ?? Math.random;
  let names: string[];
  try {
    const records = await dns.mx(domain);
    if (records.length === 1 && (records[0]!.exchange === '' || records[0]!.exchange === '.')) {
      return {
        ok: false,
        permanent: true,
        enhanced: '5.1.10',
        reason: `${domain} accepts no mail (null MX)`,
        category: 'unknown_domain',
      };
    }
    names = orderByPreference(records, random);
  } catch (err) {
    if (!(err instanceof DnsError)) throw err;
    if (err.failure === 'nxdomain') {
      return {
        ok: false,
        permanent: true,
        enhanced: '5.1.2',
        reason: `${domain} does not exist`,
        category: 'unknown_domain',
      };
    }
    if (err.failure === 'temporary') {
      return {
        ok: false,
        permanent: false,
        enhanced: '4.4.3',
        reason: err.message,
        category: 'network_error',
      };
    }
    names = [domain]; // no MX records: the implicit MX (RFC 5321 §5.1)
  }

  const hosts: MxHost[] = [];
  let refusedPrivate = 0;
  let temporary = false;
  // The first MAX_MX_HOSTS in preference order, their addresses looked up at once: one by one, a
  // domain naming 100 MX hosts whose addresses never answer held an attempt 400 s in look-ups (a fault
  // probe), past the attempt's 5 minutes and a message's deadline. Now at most one look-up's time.
  const tried = names.slice(0, MAX_MX_HOSTS);
  const found = await Promise.all(tried.map((name) => addresses(name, dns)));
  for (const [i, name] of tried.entries()) {
    const host = found[i]!;
    temporary ||= host.temporary;
    const usable = host.addresses.filter((a) => options.allowPrivate || isPublicAddress(a));
    refusedPrivate += host.addresses.length - usable.length;
    if (usable.length > 0) hosts.push({ name, addresses: usable });
  }
  if (hosts.length > 0) return { ok: true, hosts };
  if (refusedPrivate > 0 && !temporary) {
    return {
      ok: false,
      permanent: true,
      enhanced: '5.4.4',
      reason: `the mail hosts of ${domain} are on private or loopback addresses`,
      category: 'network_error',
    };
  }
  return {
    ok: false,
    permanent: false,
    enhanced: '4.4.3',
    reason: `no address found for the mail hosts of ${domain}`,
    category: 'network_error',
  };
}

function orderByPreference(
  records: { exchange: string; priority: number }[],
  random: () => number,
): string[] {
  const shuffled = records.map((r) => ({ r, k: random() }));
  shuffled.sort((a, b) => a.r.priority - b.r.priority || a.k - b.k);
  return shuffled.map(({ r }) => r.exchange.replace(/\.$/, '').toLowerCase());
}

/** A host's addresses, A and AAAA looked up at once (A first in the list). */
async function addresses(name: string, dns: RouteDns): Promise<{ addresses: string[]; temporary: boolean }> {
  const answers = await Promise.allSettled([dns.a(name), dns.aaaa(name)]);
  const out: string[] = [];
  let temporary = false;
  for (const answer of answers) {
    if (answer.status === 'fulfilled') out.push(...answer.value);
    else if (answer.reason instanceof DnsError) temporary ||= answer.reason.failure === 'temporary';
    else throw answer.reason;
  }
  return { addresses: out, temporary };
}

/** The route's hosts as delivery targets on `port`, in order: every address of each host (STARTTLS). */
export function mxTargets(hosts: readonly MxHost[], port: number): DeliveryTarget[] {
  return hosts.flatMap((h) => h.addresses.map((address) => ({ host: h.name, address, port, secure: false })));
}
