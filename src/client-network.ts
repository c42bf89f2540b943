// What a per-IP limit counts (the sign-in pages, the bounce receiver): one IPv4 address, or one IPv6
// /64. An IPv6 host picks the low 64 bits of its address itself (RFC 4291 §2.5.1; RFC 8981 temporary
// addresses change them daily), so one machine holds 2^64 addresses: counted one by one, a per-IP
// limit would stop nobody.
import ipaddr from 'ipaddr.js';

/** `192.0.2.7`, or `2001:db8:1:2::/64` for any address in that /64; an IPv4-mapped address counts as IPv4. */
export function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  // process() reads an IPv4-mapped IPv6 address as the IPv4 address inside.
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0]).toString()}/64`;
}
