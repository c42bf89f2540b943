// Who a per-client limit of the receiver counts. An IPv4 client is its address. An IPv6 client is the
// /64 its address is in: one host, or one LAN, gets a whole /64 (RFC 7421), so a sender could give each
// session a fresh address and a per-address count would count nothing. (Postfix aggregates IPv6 clients
// the same way for its per-client limits.)
import ipaddr from 'ipaddr.js';

export function clientKey(address: string): string {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // process() reads ::ffff:a.b.c.d as the IPv4 client it is.
    parsed = ipaddr.process(address);
  } catch {
    return address;
  }
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = (parsed as ipaddr.IPv6).toByteArray().slice(0, 8).concat(new Array<number>(8).fill(0));
  return `${ipaddr.fromByteArray(bytes).toString()}/64`;
}
