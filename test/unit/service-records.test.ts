// The service's own DNS records (`txmail dns`) and the start check of its host name: pure.
import { describe, expect, it } from 'vitest';
import type { DkimKeyRow } from '../../src/db/schema.js';
import { RETIRED_RECORD_KEEP_MS } from '../../src/dkim/rotation.js';
import {
  reverseName,
  rotationRecords,
  serviceRecords,
  zoneLine,
  type ServiceRecord,
  type ServiceRecordSettings,
} from '../../src/domains/service-records.js';
import { fqdnProblem, hostnameVerdict } from '../../src/hostname-check.js';

const KEY = { selector: 'txm202611', public_key: 'MIIBIjANBgkq' };
const BASE: ServiceRecordSettings = {
  hostname: 'mta.example.com',
  testDomain: 'test.mta.example.com',
  spfDomain: 'spf.mta.example.com',
  inboundMx: 'mta.example.com',
  sourceIps: [],
};

const at = (records: ServiceRecord[], name: string, type?: ServiceRecord['type']) =>
  records.filter((r) => r.name === name && (type === undefined || r.type === type));

describe('the HELO name in txmail dns', () => {
  it('names the A, AAAA and PTR records of each source address, IPv6 as ip6.arpa nibbles, and an SPF record of the HELO name listing them', () => {
    const records = serviceRecords(
      { ...BASE, sourceIps: ['192.0.2.10', '2001:db8::25'], operatorEmail: 'ops@example.com' },
      KEY,
    );
    expect(at(records, 'mta.example.com', 'A')).toEqual([expect.objectContaining({ value: '192.0.2.10' })]);
    expect(at(records, 'mta.example.com', 'AAAA')).toEqual([
      expect.objectContaining({ value: '2001:db8::25' }),
    ]);
    expect(records.filter((r) => r.type === 'PTR').map((r) => [r.name, r.value])).toEqual([
      ['10.2.0.192.in-addr.arpa', 'mta.example.com'],
      ['5.2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa', 'mta.example.com'],
    ]);
    expect(at(records, 'mta.example.com', 'TXT')).toEqual([
      expect.objectContaining({ value: 'v=spf1 ip4:192.0.2.10 ip6:2001:db8::25 -all' }),
    ]);
    // The receiver runs on the sending machine: no second A record for the inbound MX host.
    expect(records.filter((r) => r.type === 'A')).toHaveLength(1);
    expect(records.some((r) => r.placeholder || r.name_placeholder)).toBe(false);
  });

  it('prints A, AAAA and PTR placeholders and "v=spf1 a -all" when the source addresses are unknown', () => {
    const records = serviceRecords(BASE, KEY);
    expect(at(records, 'mta.example.com', 'A')).toEqual([
      expect.objectContaining({ value: 'the public IPv4 address mail leaves from', placeholder: true }),
    ]);
    expect(at(records, 'mta.example.com', 'AAAA')).toEqual([
      expect.objectContaining({ value: 'the public IPv6 address mail leaves from', placeholder: true }),
    ]);
    const ptr = records.filter((r) => r.type === 'PTR');
    expect(ptr).toEqual([expect.objectContaining({ value: 'mta.example.com', name_placeholder: true })]);
    expect(at(records, 'mta.example.com', 'TXT')).toEqual([
      expect.objectContaining({ value: 'v=spf1 a -all' }),
    ]);
    expect(zoneLine(at(records, 'mta.example.com', 'A')[0]!)).toBe(
      'mta.example.com. IN A <the public IPv4 address mail leaves from>',
    );
    expect(zoneLine(ptr[0]!)).toBe('<reverse name of each address mail leaves from> IN PTR mta.example.com.');
  });

  it('lists an inbound MX host of its own, and never two SPF records at one name', () => {
    const separate = serviceRecords({ ...BASE, inboundMx: 'bounces.example.com' }, KEY);
    expect(at(separate, 'bounces.example.com', 'A')).toEqual([
      expect.objectContaining({ placeholder: true }),
    ]);
    // RFC 7208 §4.5: the HELO name's SPF would be a second record at the SPF include domain.
    const shared = serviceRecords({ ...BASE, spfDomain: 'mta.example.com', sourceIps: ['192.0.2.10'] }, KEY);
    expect(at(shared, 'mta.example.com', 'TXT')).toEqual([
      expect.objectContaining({ value: 'v=spf1 ip4:192.0.2.10 -all' }),
    ]);
  });
});

describe("the test domain's DMARC record", () => {
  const dmarc = (records: ServiceRecord[]) => at(records, '_dmarc.test.mta.example.com', 'TXT');

  it('sends aggregate reports to the operator, with the authorization record of another organizational domain (RFC 7489 §7.1)', () => {
    const records = serviceRecords({ ...BASE, operatorEmail: 'postmaster@ops.example.org' }, KEY);
    expect(dmarc(records)).toEqual([
      expect.objectContaining({ value: 'v=DMARC1; p=reject; rua=mailto:postmaster@ops.example.org' }),
    ]);
    expect(at(records, 'test.mta.example.com._report._dmarc.ops.example.org')).toEqual([
      expect.objectContaining({ type: 'TXT', value: 'v=DMARC1' }),
    ]);
  });

  it('needs no authorization record within the same organizational domain', () => {
    const records = serviceRecords({ ...BASE, operatorEmail: 'ops@example.com' }, KEY);
    expect(dmarc(records)[0]!.value).toBe('v=DMARC1; p=reject; rua=mailto:ops@example.com');
    expect(records.filter((r) => r.name.includes('._report._dmarc.'))).toEqual([]);
  });

  it('holds a placeholder for the report address when no operator email is set', () => {
    const [record] = dmarc(serviceRecords(BASE, KEY));
    expect(record).toMatchObject({ placeholder: true });
    expect(record!.value).toMatch(/^v=DMARC1; p=reject; rua=mailto:<[^>]+>$/);
    expect(record!.purpose).toContain('TXMAIL_OPERATOR_EMAIL');
  });
});

describe('reverse names', () => {
  it.each([
    ['192.0.2.10', '10.2.0.192.in-addr.arpa'],
    ['2001:db8::25', '5.2.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa'],
    ['2001:DB8:0:0:1::', '0.0.0.0.0.0.0.0.0.0.0.0.1.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa'],
    ['::ffff:192.0.2.1', '1.0.2.0.0.0.0.c.f.f.f.f.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.ip6.arpa'],
  ])('of %s is %s', (ip, name) => {
    expect(reverseName(ip)).toBe(name);
  });
});

describe('the host name check of serve, api and worker', () => {
  it.each(['mta.example.com', 'mta1.eu.example.com', 'a.b', 'xn--bcher-kva.example', 'mta.example.com.'])(
    'accepts %s',
    (name) => {
      expect(fqdnProblem(name)).toBeUndefined();
      expect(hostnameVerdict(name, undefined)).toEqual({ ok: true });
    },
  );

  it.each([
    ['vm', /single label/],
    ['localhost', /single label/],
    ['192.0.2.10', /IP address/],
    ['mta.123', /numeric top-level label/],
    ['::1', /IP address literal/],
    ['-bad.example', /not a domain name/],
    ['a..b', /not a domain name/],
  ])('refuses %s', (name, problem) => {
    expect(fqdnProblem(name)).toMatch(problem);
    const verdict = hostnameVerdict(name, undefined);
    expect(verdict.ok).toBe(false);
    if (verdict.ok === false) {
      expect(verdict.message).toContain('TXMAIL_HOSTNAME');
      expect(verdict.message).not.toContain('\n');
    }
  });

  it('only warns when TXMAIL_ALLOW_PRIVATE_NETWORKS says this is a development set-up', () => {
    expect(hostnameVerdict('vm', 'TXMAIL_ALLOW_PRIVATE_NETWORKS')).toEqual({
      ok: 'warn',
      message: expect.stringContaining('TXMAIL_ALLOW_PRIVATE_NETWORKS'),
    });
  });

  it('only warns on a trial on this machine (npm start runs serve --trial)', () => {
    expect(hostnameVerdict('vm', '--trial')).toEqual({
      ok: 'warn',
      message: expect.stringContaining('npm start'),
    });
  });
});

describe("the test domain's keys in a rotation", () => {
  const NOW = Date.UTC(2026, 10, 22, 12);
  const DAY = 86_400_000;
  const row = (selector: string, over: Partial<DkimKeyRow>): DkimKeyRow => ({
    id: selector,
    account_id: null,
    domain: BASE.testDomain,
    selector,
    private_key: 'v1:sealed',
    public_key: `KEY${selector}`,
    created_at: NOW - 30 * DAY,
    algorithm: 'rsa-sha256',
    status: 'active',
    activated_at: NOW - 30 * DAY,
    retired_at: null,
    record_checked_at: null,
    record_status: null,
    record_problem: null,
    ...over,
  });

  it('lists the pending key, and a retired key until its record may be removed, saying when', () => {
    const keys = [
      row('txm202611', {}),
      row('txm202612', { status: 'pending', activated_at: null }),
      row('txm202610', { status: 'retired', retired_at: NOW - DAY }),
      row('txm202609', { status: 'retired', retired_at: NOW - RETIRED_RECORD_KEEP_MS }),
    ];
    const records = rotationRecords(keys, NOW);
    expect(records.map((r) => r.name)).toEqual([
      `txm202612._domainkey.${BASE.testDomain}`,
      `txm202610._domainkey.${BASE.testDomain}`,
    ]);
    expect(records[0]!.purpose).toContain('next DKIM key');
    expect(records[1]).toMatchObject({ type: 'TXT', value: 'v=DKIM1; k=rsa; p=KEYtxm202610' });
    expect(records[1]!.purpose).toBe(
      `the test domain's previous DKIM key (retired; mail it signed may still be verified): remove after ${new Date(
        NOW - DAY + RETIRED_RECORD_KEEP_MS,
      ).toISOString()}`,
    );
    // In txmail dns, right after the current key's record.
    const all = serviceRecords(BASE, KEY, { keys, now: NOW });
    const current = all.findIndex((r) => r.name === `${KEY.selector}._domainkey.${BASE.testDomain}`);
    expect(all.slice(current + 1, current + 3)).toEqual(records);
  });
});
