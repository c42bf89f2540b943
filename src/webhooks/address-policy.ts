// Which addresses a webhook may be pushed to: the public internet only, unless private networks are
// allowed (development, tests). Loopback, private (RFC 1918), link-local (incl. 169.254.169.254, the
// cloud metadata service), unique-local, multicast, unspecified, CGNAT, reserved and translation ranges
// are refused, also when written as IPv4-mapped IPv6 (::ffff:127.0.0.1).
import ipaddr from 'ipaddr.js';

export function isPublicAddress(address: string): boolean {
  try {
    let parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
      parsed = (parsed as ipaddr.IPv6).toIPv4Address();
    }
    return parsed.range() === 'unicast';
  } catch {
    return false;
  }
}
