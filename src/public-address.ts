// Which addresses txmail may connect to on a customer's word (a webhook URL, a domain's MX hosts): the
// public internet only. One rule for both, so a form one guard refuses never passes the other.
//
// IPv6: only global unicast (2000::/3, RFC 4291 §2.4) passes, minus the ranges the IANA IPv6
// special-purpose registry marks as not globally reachable. An address that carries an IPv4 address
// (IPv4-compatible, IPv4-mapped, NAT64, 6to4) is judged by that IPv4 address: a gateway or the local
// stack would connect to it (`::127.0.0.1` is the loopback to anything that understands the form).
// IPv4: everything but the IANA IPv4 special-purpose ranges, multicast and the reserved 240.0.0.0/4.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];
const ranges = (cidrs: string[]): Range[] => cidrs.map((c) => ipaddr.parseCIDR(c));

/** IPv4 ranges that are never a webhook endpoint's or a mail host's address. */
const IPV4_NOT_PUBLIC = ranges([
  '0.0.0.0/8', // "this network" (RFC 791)
  '10.0.0.0/8', // private (RFC 1918)
  '100.64.0.0/10', // shared address space, carrier-grade NAT (RFC 6598)
  '127.0.0.0/8', // loopback (RFC 1122)
  '169.254.0.0/16', // link-local, incl. the cloud metadata service 169.254.169.254 (RFC 3927)
  '172.16.0.0/12', // private (RFC 1918)
  '192.0.0.0/24', // IETF protocol assignments: DS-Lite, NAT64 discovery, PCP/TURN anycast (RFC 6890)
  '192.0.2.0/24', // documentation TEST-NET-1 (RFC 5737)
  '192.31.196.0/24', // AS112 (RFC 7535): DNS sinks, never a mail host or an endpoint
  '192.52.193.0/24', // AMT relay anycast (RFC 7450)
  '192.88.99.0/24', // 6to4 relay anycast, deprecated (RFC 7526)
  '192.168.0.0/16', // private (RFC 1918)
  '192.175.48.0/24', // AS112 direct delegation (RFC 7534)
  '198.18.0.0/15', // benchmarking (RFC 2544)
  '198.51.100.0/24', // documentation TEST-NET-2 (RFC 5737)
  '203.0.113.0/24', // documentation TEST-NET-3 (RFC 5737)
  '224.0.0.0/4', // multicast (RFC 5771)
  '240.0.0.0/4', // reserved (RFC 1112), incl. the limited broadcast 255.255.255.255
]);

/** Global unicast (RFC 4291 §2.4): everything else in IPv6 is local, multicast or reserved. */
const IPV6_GLOBAL_UNICAST = ranges(['2000::/3']);

/** The special-purpose ranges inside 2000::/3 (6to4, 2002::/16, is judged by its IPv4 address). */
const IPV6_NOT_PUBLIC = ranges([
  // IETF protocol assignments (RFC 2928): Teredo 2001::/32 (its IPv4 parts are obfuscated, RFC 4380),
  // benchmarking 2001:2::/48, AMT, AS112-v6, ORCHID 2001:10::/28, ORCHIDv2 2001:20::/28 and DRIP
  // 2001:30::/28 (identifiers, not routable locators): none of them is a server's address.
  '2001::/23',
  '2001:db8::/32', // documentation (RFC 3849)
  '2620:4f:8000::/48', // AS112 direct delegation (RFC 7534)
  '3fff::/20', // documentation (RFC 9637)
]);

/** Where an IPv4 address sits in an IPv6 address: the first byte of each of its four bytes. */
type Embedding = [number, number, number, number];
const LAST_32_BITS: Embedding = [12, 13, 14, 15];

/** Forms whose IPv4 address decides; the first range that matches gives the positions to read. */
const IPV6_WITH_IPV4: [Range, Embedding[]][] = [
  // IPv4-compatible (RFC 4291 §2.5.5.1, deprecated; also covers :: and ::1, judged as 0.0.0.x).
  [ipaddr.parseCIDR('::/96'), [LAST_32_BITS]],
  // IPv4-mapped (RFC 4291 §2.5.5.2).
  [ipaddr.parseCIDR('::ffff:0:0/96'), [LAST_32_BITS]],
  // NAT64 well-known prefix (RFC 6052 §2.1).
  [ipaddr.parseCIDR('64:ff9b::/96'), [LAST_32_BITS]],
  // NAT64 local-use prefix (RFC 8215): the operator picks a prefix length of /48 to /96 inside it, and
  // the IPv4 address sits where RFC 6052 §2.2 puts it for that length (skipping the u-octet, bits
  // 64-71). We cannot know which length a translator uses, so every position must hold a public address.
  [
    ipaddr.parseCIDR('64:ff9b:1::/48'),
    [
      [6, 7, 9, 10], // /48
      [7, 9, 10, 11], // /56
      [9, 10, 11, 12], // /64
      LAST_32_BITS, // /96
    ],
  ],
  // 6to4 (RFC 3056 §2): 2002:V4ADDR::/48.
  [ipaddr.parseCIDR('2002::/16'), [[2, 3, 4, 5]]],
];

const inAny = (address: ipaddr.IPv4 | ipaddr.IPv6, list: Range[]) =>
  list.some((range) => address.kind() === range[0].kind() && address.match(range));

/** True for an address on the public internet; false for anything else, including what is not an address. */
export function isPublicAddress(address: string): boolean {
  const text = address.replace(/^\[|\]$/g, '');
  // net.isIP first: ipaddr.js also reads forms such as 0x7f.1 or 2130706433, which no URL or DNS answer
  // hands us in that shape and which should not pass as something else.
  if (isIP(text) === 0) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(text);
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv4') return !inAny(parsed, IPV4_NOT_PUBLIC);
  const v6 = parsed as ipaddr.IPv6;
  // ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`; harmless here, as both forms are judged by a.b.c.d.
  for (const [range, embeddings] of IPV6_WITH_IPV4) {
    if (!v6.match(range)) continue;
    const bytes = v6.toByteArray();
    return embeddings.every(
      (at) => !inAny(new ipaddr.IPv4(at.map((i) => bytes[i]!) as Embedding), IPV4_NOT_PUBLIC),
    );
  }
  return inAny(v6, IPV6_GLOBAL_UNICAST) && !inAny(v6, IPV6_NOT_PUBLIC);
}
