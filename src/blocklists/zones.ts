// Which DNS blocklists to consult (TXMAIL_DNSBL_ZONES). A zone lists either addresses (queried as the
// address's reversed octets or nibbles under the zone) or names (queried as the name under the zone);
// the two kinds answer different questions, so each zone says which it is: `zone` or `zone:addresses`
// lists addresses, `zone:names` lists domain names. `none` turns monitoring off.

export type ZoneKind = 'addresses' | 'names';

export interface BlocklistZone {
  zone: string;
  kind: ZoneKind;
}

/**
 * The common public lists: Spamhaus ZEN, SpamCop and Barracuda for addresses, Spamhaus DBL for names.
 * Spamhaus and Barracuda refuse queries that reach them through large public resolvers (Spamhaus answers
 * 127.255.255.254, which txmail records as an unusable answer, not a listing): point
 * TXMAIL_DNS_SERVERS at a resolver of your own, or list zones you have access to.
 */
export const DEFAULT_BLOCKLIST_ZONES =
  'zen.spamhaus.org, bl.spamcop.net, b.barracudacentral.org, dbl.spamhaus.org:names';

const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** Parses the TXMAIL_DNSBL_ZONES syntax; throws with a message naming the bad entry. */
export function parseBlocklistZones(value: string): BlocklistZone[] {
  const trimmed = value.trim();
  if (trimmed.toLowerCase() === 'none') return [];
  const zones: BlocklistZone[] = [];
  for (const raw of trimmed.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    const colon = entry.indexOf(':');
    const zone = (colon < 0 ? entry : entry.slice(0, colon)).replace(/\.$/, '');
    const kind = colon < 0 ? 'addresses' : entry.slice(colon + 1).trim();
    if (kind !== 'addresses' && kind !== 'names') {
      throw new Error(`"${raw.trim()}": the kind after ":" must be addresses or names`);
    }
    if (zone.length > 200 || !zone.includes('.') || !zone.split('.').every((l) => LABEL.test(l))) {
      throw new Error(`"${raw.trim()}" is not a DNS zone (like zen.spamhaus.org or dbl.spamhaus.org:names)`);
    }
    if (zones.some((z) => z.zone === zone)) throw new Error(`"${zone}" is listed twice`);
    zones.push({ zone, kind });
  }
  if (zones.length === 0) throw new Error('no zone given (use none to turn monitoring off)');
  return zones;
}

/** TXMAIL_DNSBL_ZONES's text for `zones`: `none` for no zone, an address list's zone alone. */
export function blocklistZonesText(zones: BlocklistZone[]): string {
  if (zones.length === 0) return 'none';
  return zones.map((z) => (z.kind === 'names' ? `${z.zone}:names` : z.zone)).join(',');
}
