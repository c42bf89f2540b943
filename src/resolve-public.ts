// The one resolution of a host that txmail connects to over HTTP(S) on a recipient's or a tenant's word
// (a webhook endpoint, an MTA-STS policy host, a TLS-RPT endpoint): its A and AAAA answers through the
// service's resolver, judged by the one address guard (public-address.ts). Every address must be public:
// a name with one public and one private address could be steered to the private one.
import { isIP } from 'node:net';
import { DnsError, type DnsResolver } from './dns/resolver.js';
import { isPublicAddress } from './public-address.js';

export type PublicResolution =
  | { ok: true; addresses: string[] }
  /** temporary: the DNS could not answer now (try again later); otherwise the host is refused. */
  | { ok: false; reason: string; temporary: boolean };

/**
 * The host's addresses (an IP literal is its own), all public unless `allowPrivate`
 * (TXMAIL_ALLOW_PRIVATE_NETWORKS); A answers before AAAA.
 */
export async function resolvePublicAddresses(
  host: string,
  dns: Pick<DnsResolver, 'a' | 'aaaa'>,
  allowPrivate: boolean,
): Promise<PublicResolution> {
  const addresses: string[] = [];
  if (isIP(host)) {
    addresses.push(host);
  } else {
    let temporary = false;
    let lastError = '';
    for (const lookup of [dns.a.bind(dns), dns.aaaa.bind(dns)]) {
      try {
        addresses.push(...(await lookup(host)));
      } catch (err) {
        if (!(err instanceof DnsError)) throw err;
        if (err.failure === 'temporary') temporary = true;
        lastError = err.message;
      }
    }
    if (addresses.length === 0) {
      return { ok: false, reason: `${host} does not resolve (${lastError || 'no address'})`, temporary };
    }
  }
  const refused = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a));
  if (refused !== undefined) {
    return {
      ok: false,
      reason: `${host} resolves to ${refused}, a loopback, private or otherwise non-public address`,
      temporary: false,
    };
  }
  return { ok: true, addresses };
}
