// Lists of trusted networks (addresses, CIDR ranges, the named ranges of TXMAIL_TRUST_PROXY): the
// clients the receiver's per-client limits leave alone (TXMAIL_INBOUND_TRUSTED_NETWORKS), as Postfix
// exempts mynetworks, the service's own hosts and relays, which may hand over many bounces at once; and
// the proxies the API listener's per-peer connection limit leaves alone (http/connection-limits.ts).
import ipaddr from 'ipaddr.js';

const NAMED: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** Whether a client address is trusted, for a list of addresses, CIDR ranges and named ranges. */
export type TrustedNetworks = (address: string) => boolean;

/** Compiles a validated list (config.ts checks each entry) once; an empty list trusts nobody. */
export function trustedNetworks(entries: string[]): TrustedNetworks {
  const ranges = entries
    .flatMap((e) => NAMED[e] ?? [e.includes('/') ? e : single(e)])
    .map((cidr) => ipaddr.parseCIDR(cidr));
  if (ranges.length === 0) return () => false;
  return (address) => {
    let parsed: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      // ::ffff:a.b.c.d is the IPv4 client a.b.c.d on a dual-stack socket.
      parsed = ipaddr.process(address);
    } catch {
      return false;
    }
    return ranges.some((range) => range[0].kind() === parsed.kind() && parsed.match(range));
  };
}

/** One address as a range; an IPv4-mapped one as the IPv4 address, as clients are matched. */
function single(address: string): string {
  const parsed = ipaddr.process(address);
  return `${parsed.toString()}/${parsed.kind() === 'ipv4' ? 32 : 128}`;
}
