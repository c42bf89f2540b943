// The DNS records the operator publishes for the service itself (`txmail dns`; ARCHITECTURE.md, "The
// service's own DNS records"): the HELO name (forward and reverse addresses, its own SPF), the test
// domain that sandbox mail is sent from (DKIM, SPF, MX, DMARC with its report address), the SPF include
// domain listing the sending addresses, and the bounce receiver's MX host. Pure.
import { isIP } from 'node:net';
import { parse } from 'tldts';
import type { DkimKeyRow } from '../db/schema.js';
import { dkimRecordName, dkimRecordValue } from '../dkim/keys.js';
import { removableAfter } from '../dkim/rotation.js';
import { dkimKeyRecord, spfRecordValue } from './domain-records.js';

export interface ServiceRecord {
  type: 'TXT' | 'MX' | 'A' | 'AAAA' | 'PTR';
  name: string;
  value: string;
  priority?: number;
  /** The value is (or holds, in <…>) a description of what to put there: txmail cannot know it. */
  placeholder?: boolean;
  /** The name is a description (the reverse name of an address txmail does not know). */
  name_placeholder?: boolean;
  purpose: string;
}

export interface ServiceRecordSettings {
  hostname: string;
  testDomain: string;
  spfDomain: string;
  inboundMx: string;
  sourceIps: string[];
  /** Where the test domain's DMARC aggregate reports go (TXMAIL_OPERATOR_EMAIL). */
  operatorEmail?: string | undefined;
}

export function serviceRecords(
  s: ServiceRecordSettings,
  testKey: { selector: string; public_key: string },
  /** The test domain's other keys (a rotation's): listed while their record must be published. */
  rotation: { keys: readonly DkimKeyRow[]; now: number } = { keys: [], now: 0 },
): ServiceRecord[] {
  const ips = s.sourceIps;
  const spfTerms = ips.map((ip) => (isIP(ip) === 6 ? `ip6:${ip}` : `ip4:${ip}`));
  return [
    ...heloRecords(s, spfTerms),
    {
      type: 'TXT',
      name: dkimRecordName(testKey.selector, s.testDomain),
      value: dkimRecordValue(testKey.public_key),
      purpose: `DKIM key of the test domain (sandbox mail and the guided test are signed with it)`,
    },
    ...rotationRecords(rotation.keys, rotation.now),
    {
      type: 'TXT',
      name: s.testDomain,
      value: spfRecordValue(s.spfDomain),
      purpose: 'SPF of the test domain, which is also the envelope domain of sandbox mail',
    },
    {
      type: 'MX',
      name: s.testDomain,
      value: s.inboundMx,
      priority: 10,
      purpose: 'bounces of sandbox mail come back to txmail',
    },
    ...dmarcRecords(s),
    {
      type: 'TXT',
      name: s.spfDomain,
      value: `v=spf1 ${(spfTerms.length > 0 ? spfTerms : [`a:${s.hostname}`]).join(' ')} -all`,
      purpose:
        ips.length > 0
          ? "the SPF include domain: every customer's SPF record includes it, so it lists the sending addresses (TXMAIL_SOURCE_IPS)"
          : "the SPF include domain: every customer's SPF record includes it. TXMAIL_SOURCE_IPS is unset, so it names the addresses of TXMAIL_HOSTNAME; list the sending addresses in TXMAIL_SOURCE_IPS to publish them directly",
    },
    // The bounce receiver usually runs on the sending machine, whose addresses are listed above.
    ...(s.inboundMx === s.hostname.toLowerCase()
      ? []
      : [
          {
            type: 'A' as const,
            name: s.inboundMx,
            value: 'the public address of the machine receiving bounces on port 25',
            placeholder: true,
            purpose: "the inbound MX host: customers' send.<domain> MX records point at it",
          },
        ]),
  ];
}

/**
 * The records of the test domain's keys in a rotation (ARCHITECTURE.md, "DKIM"): a pending key's, to
 * publish beside the current one (it signs once found), and a retired key's while mail it signed may
 * still be verified (RETIRED_RECORD_KEEP_MS after it was retired), with the date it may be removed.
 * Retired keys past that date, and those without a retirement date, are left out.
 */
export function rotationRecords(keys: readonly DkimKeyRow[], now: number): ServiceRecord[] {
  const pending = keys.filter((k) => k.status === 'pending');
  const kept = keys.filter((k) => k.status === 'retired' && (removableAfter(k) ?? 0) > now);
  return [
    ...pending.map((k) => ({
      ...dkimKeyRecord(k),
      purpose: `the test domain's next DKIM key (a rotation: it signs once found; txmail dkim rotate)`,
    })),
    ...kept.map((k) => ({
      ...dkimKeyRecord(k),
      purpose: `the test domain's previous DKIM key (retired; mail it signed may still be verified): remove after ${new Date(
        removableAfter(k)!,
      ).toISOString()}`,
    })),
  ];
}

/**
 * The HELO name's own records, published whatever else is configured: receivers look its addresses up
 * (forward-confirmed reverse DNS: the sending address's PTR names the host, whose A/AAAA holds the
 * address) and evaluate SPF for it (RFC 7208 §2.3; SpamAssassin's SPF_HELO_NONE when there is none).
 */
function heloRecords(s: ServiceRecordSettings, spfTerms: string[]): ServiceRecord[] {
  const records: ServiceRecord[] = [];
  const host = s.hostname;
  const fcrdns = `the EHLO name resolves to the sending address (receivers check forward-confirmed reverse DNS)${
    s.inboundMx === host.toLowerCase()
      ? "; it is also the inbound MX host customers' send.<domain> MX records point at"
      : ''
  }`;
  const ptr =
    'reverse DNS of the sending address names the EHLO host (set at the address owner, e.g. your hosting provider)';
  if (s.sourceIps.length > 0) {
    for (const ip of s.sourceIps) {
      records.push({ type: isIP(ip) === 6 ? 'AAAA' : 'A', name: host, value: ip, purpose: fcrdns });
    }
    for (const ip of s.sourceIps) {
      records.push({ type: 'PTR', name: reverseName(ip), value: host, purpose: ptr });
    }
  } else {
    const unknown = '; TXMAIL_SOURCE_IPS is unset, so txmail cannot name the address';
    records.push(
      {
        type: 'A',
        name: host,
        value: 'the public IPv4 address mail leaves from',
        placeholder: true,
        purpose: `${fcrdns}${unknown}`,
      },
      {
        type: 'AAAA',
        name: host,
        value: 'the public IPv6 address mail leaves from',
        placeholder: true,
        purpose: `${fcrdns}; when the machine has a public IPv6 address mail may leave over it: publish it here with its PTR, or turn IPv6 off for outgoing mail`,
      },
      {
        type: 'PTR',
        name: 'reverse name of each address mail leaves from',
        name_placeholder: true,
        value: host,
        purpose: `${ptr}${unknown}`,
      },
    );
  }
  // One SPF record per name (RFC 7208 §4.5): when the HELO name is also the test domain or the SPF
  // include domain, their record already authorizes the sending addresses.
  if (host.toLowerCase() !== s.testDomain && host.toLowerCase() !== s.spfDomain) {
    records.push({
      type: 'TXT',
      name: host,
      value: `v=spf1 ${spfTerms.length > 0 ? spfTerms.join(' ') : 'a'} -all`,
      purpose:
        spfTerms.length > 0
          ? 'SPF of the EHLO name: receivers evaluate SPF for the HELO identity too (RFC 7208 §2.3), and spam filters count a missing one (SpamAssassin SPF_HELO_NONE)'
          : 'SPF of the EHLO name: receivers evaluate SPF for the HELO identity too (RFC 7208 §2.3), and spam filters count a missing one (SpamAssassin SPF_HELO_NONE); "a" authorizes the addresses of the A/AAAA records above',
    });
  }
  return records;
}

/**
 * The test domain's DMARC record with its aggregate-report address. txmail's own receiver accepts only
 * bounces and complaints (inbound/recipient-policy.ts), so the reports go to the operator
 * (TXMAIL_OPERATOR_EMAIL); a destination outside the test domain's organizational domain must consent
 * to receive them (RFC 7489 §7.1), by a record in its own zone.
 */
function dmarcRecords(s: ServiceRecordSettings): ServiceRecord[] {
  const policy =
    'DMARC of the test domain: txmail DKIM-signs everything it sends from it, so failing mail is forged; start with p=none if you prefer to watch reports first';
  if (s.operatorEmail === undefined) {
    return [
      {
        type: 'TXT',
        name: `_dmarc.${s.testDomain}`,
        value: 'v=DMARC1; p=reject; rua=mailto:<an address of yours that receives DMARC reports>',
        placeholder: true,
        purpose: `${policy}. rua: where receivers send daily aggregate reports; set TXMAIL_OPERATOR_EMAIL and txmail fills it in (txmail's own receiver takes only bounces and complaints)`,
      },
    ];
  }
  const reportDomain = s.operatorEmail.slice(s.operatorEmail.lastIndexOf('@') + 1);
  const records: ServiceRecord[] = [
    {
      type: 'TXT',
      name: `_dmarc.${s.testDomain}`,
      value: `v=DMARC1; p=reject; rua=mailto:${s.operatorEmail}`,
      purpose: `${policy}. rua: daily aggregate reports go to the operator (TXMAIL_OPERATOR_EMAIL)`,
    },
  ];
  if (organizationalDomain(reportDomain) !== organizationalDomain(s.testDomain)) {
    records.push({
      type: 'TXT',
      name: `${s.testDomain}._report._dmarc.${reportDomain}`,
      value: 'v=DMARC1',
      purpose: `lets ${reportDomain} receive the test domain's DMARC reports (RFC 7489 §7.1: without it receivers send none); publish it in the zone of ${reportDomain}`,
    });
  }
  return records;
}

/**
 * The registrable name by the Public Suffix List, private section included: a finer split than the
 * ICANN section alone, so any doubt ends in printing the authorization record, which costs nothing.
 */
function organizationalDomain(name: string): string {
  const n = name.toLowerCase().replace(/\.$/, '');
  return parse(n, { allowPrivateDomains: true }).domain ?? n;
}

/** The in-addr.arpa / ip6.arpa name of an address (RFC 1035 §3.5, RFC 3596 §2.5). */
export function reverseName(ip: string): string {
  if (isIP(ip) === 4) return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
  // The URL parser writes an IPv6 address in its canonical form, an embedded IPv4 part as hex groups.
  const canonical = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  const halves = canonical.split('::');
  const groups = (h: string | undefined) => (h ? h.split(':') : []);
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  const full = [...head, ...Array<string>(8 - head.length - tail.length).fill('0'), ...tail];
  const nibbles = full.map((g) => g.padStart(4, '0')).join('');
  return `${[...nibbles].reverse().join('.')}.ip6.arpa`;
}

/** One record in zone-file syntax; TXT values split into character-strings of at most 255 bytes (RFC 1035 §3.3.14). */
export function zoneLine(
  r: Pick<ServiceRecord, 'type' | 'name' | 'value' | 'priority' | 'placeholder' | 'name_placeholder'>,
): string {
  const name = r.name_placeholder ? `<${r.name}>` : `${r.name}.`;
  switch (r.type) {
    case 'TXT':
      return `${name} IN TXT ${(r.value.match(/.{1,255}/g) ?? ['']).map((c) => `"${c}"`).join(' ')}`;
    case 'MX':
      return `${name} IN MX ${r.priority ?? 10} ${r.value}.`;
    case 'PTR':
      return `${name} IN PTR ${r.value}.`;
    default:
      return r.placeholder ? `${name} IN ${r.type} <${r.value}>` : `${name} IN ${r.type} ${r.value}`;
  }
}
