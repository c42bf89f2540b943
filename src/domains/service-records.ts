// The DNS records the operator publishes for the service itself (`txmail dns`): the test domain that
// sandbox mail is sent from, the SPF include domain listing the sending addresses, the bounce receiver's
// MX host, and forward/reverse names for the sending addresses.
import { isIP } from 'node:net';
import { dkimRecordName, dkimRecordValue } from '../dkim/keys.js';
import { spfRecordValue } from './domain-records.js';

export interface ServiceRecord {
  type: 'TXT' | 'MX' | 'A' | 'AAAA' | 'PTR';
  name: string;
  value: string;
  priority?: number;
  /** The value is a description of what to put there (txmail cannot know it). */
  placeholder?: boolean;
  purpose: string;
}

export interface ServiceRecordSettings {
  hostname: string;
  testDomain: string;
  spfDomain: string;
  inboundMx: string;
  sourceIps: string[];
}

export function serviceRecords(
  s: ServiceRecordSettings,
  testKey: { selector: string; public_key: string },
): ServiceRecord[] {
  const ips = s.sourceIps;
  const spfTerms =
    ips.length > 0 ? ips.map((ip) => (isIP(ip) === 6 ? `ip6:${ip}` : `ip4:${ip}`)) : [`a:${s.hostname}`];
  const records: ServiceRecord[] = [
    {
      type: 'TXT',
      name: dkimRecordName(testKey.selector, s.testDomain),
      value: dkimRecordValue(testKey.public_key),
      purpose: `DKIM key of the test domain (sandbox mail and the guided test are signed with it)`,
    },
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
    {
      type: 'TXT',
      name: `_dmarc.${s.testDomain}`,
      value: 'v=DMARC1; p=reject',
      purpose:
        'DMARC of the test domain: txmail DKIM-signs everything it sends from it, so failing mail is forged; start with p=none if you prefer to watch reports first',
    },
    {
      type: 'TXT',
      name: s.spfDomain,
      value: `v=spf1 ${spfTerms.join(' ')} -all`,
      purpose:
        ips.length > 0
          ? "the SPF include domain: every customer's SPF record includes it, so it lists the sending addresses (TXMAIL_SOURCE_IPS)"
          : "the SPF include domain: every customer's SPF record includes it. TXMAIL_SOURCE_IPS is unset, so it names the addresses of TXMAIL_HOSTNAME; list the sending addresses in TXMAIL_SOURCE_IPS to publish them directly",
    },
  ];
  // The bounce receiver usually runs on the sending machine; its address is then listed below.
  if (s.inboundMx !== s.hostname || ips.length === 0) {
    records.push({
      type: 'A',
      name: s.inboundMx,
      value: 'the public address of the machine receiving bounces on port 25',
      placeholder: true,
      purpose: "the inbound MX host: customers' send.<domain> MX records point at it",
    });
  }
  for (const ip of ips) {
    records.push({
      type: isIP(ip) === 6 ? 'AAAA' : 'A',
      name: s.hostname,
      value: ip,
      purpose:
        'the EHLO name resolves to the sending address (receivers check forward-confirmed reverse DNS)',
    });
    records.push({
      type: 'PTR',
      name: reverseName(ip),
      value: s.hostname,
      purpose:
        'reverse DNS of the sending address names the EHLO host (set at the address owner, e.g. your hosting provider)',
    });
  }
  return records;
}

/** The in-addr.arpa / ip6.arpa name of an address (RFC 1035 §3.5, RFC 3596 §2.5). */
export function reverseName(ip: string): string {
  if (isIP(ip) === 4) return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
  const halves = ip.split('::');
  const groups = (h: string | undefined) => (h ? h.split(':') : []);
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  const full = [...head, ...Array(8 - head.length - tail.length).fill('0'), ...tail];
  const nibbles = full.map((g) => g.padStart(4, '0')).join('');
  return `${[...nibbles].reverse().join('.')}.ip6.arpa`;
}

/** One record in zone-file syntax; TXT values split into character-strings of at most 255 bytes (RFC 1035 §3.3.14). */
export function zoneLine(r: ServiceRecord): string {
  const name = `${r.name}.`;
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
