// The address guard of webhooks and MX delivery: which addresses count as the public internet, table-
// driven over the IANA special-purpose ranges and every IPv6 form that carries an IPv4 address, then the
// MX route refusing a mail host whose only address is such a form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveMxRoute } from '../src/delivery/mx-route.js';
import { DnsResolver } from '../src/dns/resolver.js';
import { isPublicAddress } from '../src/public-address.js';
import { TestDnsServer } from './helpers/dns-server.js';

describe('which addresses are public', () => {
  it.each([
    // IPv4: public unicast.
    ['8.8.8.8', true],
    ['93.184.216.34', true],
    ['1.1.1.1', true],
    ['100.63.255.255', true],
    ['100.128.0.0', true],
    ['172.15.255.255', true],
    ['172.32.0.0', true],
    ['192.0.3.1', true],
    ['198.20.0.1', true],
    ['223.255.255.255', true],
    // IPv4: special-purpose.
    ['0.0.0.0', false],
    ['0.1.2.3', false],
    ['10.1.2.3', false],
    ['100.64.0.1', false],
    ['127.0.0.1', false],
    ['127.8.9.10', false],
    ['169.254.169.254', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.0.0.9', false],
    ['192.0.0.170', false],
    ['192.0.2.1', false],
    ['192.31.196.1', false],
    ['192.52.193.1', false],
    ['192.88.99.1', false],
    ['192.168.1.1', false],
    ['192.175.48.1', false],
    ['198.18.0.1', false],
    ['198.19.255.255', false],
    ['198.51.100.7', false],
    ['203.0.113.9', false],
    ['224.0.0.1', false],
    ['239.255.255.250', false],
    ['240.0.0.1', false],
    ['255.255.255.255', false],
    // IPv6: global unicast.
    ['2001:4860:4860::8888', true],
    ['2606:4700:4700::1111', true],
    ['2a00:1450:4001:80b::200e', true],
    ['2001:200::1', true],
    ['2001:db7:ffff::1', true],
    ['2001:db9::1', true],
    ['3ffe::1', true],
    ['3fff:1000::1', true],
    ['[2606:4700:4700::1111]', true],
    // IPv6: outside 2000::/3.
    ['::', false],
    ['::1', false],
    ['fe80::1', false],
    ['fe80::1%eth0', false],
    ['fec0::1', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['ff02::1', false],
    ['ff0e::1', false],
    ['100::1', false],
    ['100:0:0:1::1', false],
    ['5f00::1', false],
    ['4000::1', false],
    ['::ffff:0:808:808', false], // SIIT IPv4-translated (RFC 2765), outside 2000::/3
    // IPv6: special-purpose inside 2000::/3.
    ['2001::1', false], // Teredo
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false], // Teredo with a public server and client
    ['2001:1::1', false], // PCP anycast
    ['2001:2::1', false], // benchmarking
    ['2001:3::1', false], // AMT
    ['2001:4:112::1', false], // AS112-v6
    ['2001:10::1', false], // ORCHID
    ['2001:20::1', false], // ORCHIDv2
    ['2001:30::1', false], // DRIP
    ['2001:1ff::1', false],
    ['2001:db8::1', false], // documentation
    ['2001:db8:ffff:ffff::1', false],
    ['2620:4f:8000::1', false], // AS112 direct delegation
    ['3fff::1', false], // documentation (RFC 9637)
    ['3fff:fff::1', false],
    // IPv4-compatible (::a.b.c.d): judged by the IPv4 address.
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['::10.0.0.1', false],
    ['::169.254.169.254', false],
    ['::0.0.0.2', false],
    ['::8.8.8.8', true],
    // IPv4-mapped (::ffff:a.b.c.d).
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:169.254.169.254', false],
    ['::ffff:8.8.8.8', true],
    ['[::ffff:8.8.8.8]', true],
    // NAT64, the well-known prefix (RFC 6052).
    ['64:ff9b::127.0.0.1', false],
    ['64:ff9b::7f00:1', false],
    ['64:ff9b::a00:1', false],
    ['64:ff9b::8.8.8.8', true],
    ['64:ff9b::1:8.8.8.8', false], // not the /96: outside every form, so not global unicast
    // NAT64, the local-use prefix (RFC 8215): every RFC 6052 position must hold a public address.
    ['64:ff9b:1::127.0.0.1', false],
    ['64:ff9b:1::8.8.8.8', false], // the /48 position holds 0.0.0.0
    ['64:ff9b:1:7f00:1:808:808:808', false], // 127.0.0.1 at the /48 position, public at /96
    ['64:ff9b:1:808:8:808:808:808', true], // 8.8.8.8 at every position
    // 6to4 (2002:V4ADDR::/48).
    ['2002:7f00:1::1', false],
    ['2002:a00:1::1', false],
    ['2002:c0a8:101::1', false],
    ['2002:808:808::1', true],
    // Not addresses.
    ['not an address', false],
    ['', false],
    ['0x7f.1', false],
    ['2130706433', false],
    ['127.1', false],
    ['1.2.3.4.5', false],
    ['[::1', false],
  ] as const)('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('the MX route', () => {
  const dns = new TestDnsServer();
  let resolver: DnsResolver;

  beforeAll(async () => {
    await dns.start();
    resolver = new DnsResolver([dns.address]);
    dns.add('compat.example', 'MX', { preference: 10, exchange: 'mx.compat.example' });
    dns.add('mx.compat.example', 'AAAA', '::127.0.0.1');
    dns.add('nat64.example', 'MX', { preference: 10, exchange: 'mx.nat64.example' });
    dns.add('mx.nat64.example', 'AAAA', '64:ff9b::a9fe:a9fe');
    dns.add('sixtofour.example', 'MX', { preference: 10, exchange: 'mx.sixtofour.example' });
    dns.add('mx.sixtofour.example', 'AAAA', '2002:a00:1::25');
    dns.add('dummy.example', 'MX', { preference: 10, exchange: 'mx.dummy.example' });
    dns.add('mx.dummy.example', 'AAAA', '100:0:0:1::25');
    dns.add('both.example', 'MX', { preference: 10, exchange: 'mx1.both.example' });
    dns.add('both.example', 'MX', { preference: 20, exchange: 'mx2.both.example' });
    dns.add('mx1.both.example', 'AAAA', '::ffff:127.0.0.1');
    dns.add('mx2.both.example', 'AAAA', '2606:4700:4700::1111');
  });
  afterAll(() => dns.stop());

  it.each(['compat.example', 'nat64.example', 'sixtofour.example'])(
    'refuses %s, whose only mail host has an IPv6 address carrying a private IPv4 one',
    async (domain) => {
      expect(await resolveMxRoute(domain, resolver, { allowPrivate: false })).toEqual({
        ok: false,
        permanent: true,
        enhanced: '5.4.4',
        reason: `the mail hosts of ${domain} are on private or loopback addresses`,
        category: 'network_error',
      });
    },
  );

  it('refuses a mail host outside global unicast IPv6 (the dummy prefix of RFC 9780)', async () => {
    const route = await resolveMxRoute('dummy.example', resolver, { allowPrivate: false });
    expect(route).toMatchObject({ ok: false, permanent: true, enhanced: '5.4.4' });
  });

  it('skips a host on a loopback form and keeps the public one', async () => {
    expect(await resolveMxRoute('both.example', resolver, { allowPrivate: false })).toEqual({
      ok: true,
      hosts: [{ name: 'mx2.both.example', addresses: ['2606:4700:4700::1111'] }],
    });
  });

  it('takes such a host when private networks are allowed', async () => {
    const route = await resolveMxRoute('compat.example', resolver, { allowPrivate: true });
    expect(route.ok).toBe(true);
  });
});
