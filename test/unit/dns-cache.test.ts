// The delivery DNS cache (dns/dns-cache.ts): answers kept for their TTL within the limits, failures
// by kind, one query for concurrent look-ups, time from a clock the test moves.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { DNS_CACHE_LIMITS, DnsCache, keepMs, type TimedDns } from '../../src/dns/dns-cache.js';
import type { TimedMx } from '../../src/dns/mx-query.js';
import { DnsError, type TimedAddress } from '../../src/dns/resolver.js';

/** A resolver answering from a table, counting the queries it gets. */
class TableDns implements TimedDns {
  queries: string[] = [];
  mxAnswer: TimedMx | DnsError = { records: [{ exchange: 'mx.dest.example', priority: 10 }], ttl: 900 };
  aAnswer: TimedAddress[] | DnsError = [{ address: '192.0.2.1', ttl: 300 }];
  aaaaAnswer: TimedAddress[] | DnsError = new DnsError('nodata', 'no AAAA');
  /** Set: queries wait for it to be called. */
  gate: Promise<void> | undefined;

  async mxTimed(name: string) {
    return this.answer(`MX ${name}`, this.mxAnswer);
  }
  async aTimed(name: string) {
    return this.answer(`A ${name}`, this.aAnswer);
  }
  async aaaaTimed(name: string) {
    return this.answer(`AAAA ${name}`, this.aaaaAnswer);
  }
  private async answer<T>(q: string, a: T | DnsError): Promise<T> {
    this.queries.push(q);
    await this.gate;
    if (a instanceof DnsError) throw a;
    return structuredClone(a);
  }
}

function setup() {
  const clock = new ManualClock();
  const dns = new TableDns();
  const cache = new DnsCache(dns, () => clock.now());
  return { clock, dns, cache };
}

describe('keepMs', () => {
  const limits = DNS_CACHE_LIMITS;
  it('keeps an answer for its TTL, raised to the floor and cut to the ceiling', () => {
    expect(keepMs({ ttl: 300 }, limits)).toBe(300_000);
    expect(keepMs({ ttl: 0 }, limits)).toBe(limits.minSeconds * 1000);
    expect(keepMs({ ttl: 86_400 }, limits)).toBe(limits.maxSeconds * 1000);
  });
  it('keeps a negative answer briefly, a temporary failure a moment', () => {
    expect(keepMs({ failure: 'nxdomain' }, limits)).toBe(limits.negativeSeconds * 1000);
    expect(keepMs({ failure: 'nodata' }, limits)).toBe(limits.negativeSeconds * 1000);
    expect(keepMs({ failure: 'temporary' }, limits)).toBe(limits.temporarySeconds * 1000);
  });
});

describe('DnsCache', () => {
  it('answers an address look-up from memory until its TTL has passed', async () => {
    const { clock, dns, cache } = setup();
    expect(await cache.a('mx.dest.example')).toEqual(['192.0.2.1']);
    clock.advance(299_000);
    expect(await cache.a('MX.Dest.Example')).toEqual(['192.0.2.1']);
    expect(dns.queries).toEqual(['A mx.dest.example']);
    clock.advance(1_000);
    dns.aAnswer = [{ address: '192.0.2.2', ttl: 300 }];
    expect(await cache.a('mx.dest.example')).toEqual(['192.0.2.2']);
    expect(dns.queries).toEqual(['A mx.dest.example', 'A mx.dest.example']);
  });

  it('keeps addresses for the shortest TTL among them', async () => {
    const { clock, dns, cache } = setup();
    dns.aAnswer = [
      { address: '192.0.2.1', ttl: 600 },
      { address: '192.0.2.2', ttl: 20 },
    ];
    await cache.a('mx.dest.example');
    clock.advance(19_999);
    await cache.a('mx.dest.example');
    expect(dns.queries).toHaveLength(1);
    clock.advance(1);
    await cache.a('mx.dest.example');
    expect(dns.queries).toHaveLength(2);
  });

  it('keeps MX answers for their TTL, and hands out copies', async () => {
    const { clock, dns, cache } = setup();
    const first = await cache.mx('dest.example');
    first.push({ exchange: 'evil.example', priority: 0 });
    clock.advance(900_000 - 1);
    expect(await cache.mx('dest.example')).toEqual([{ exchange: 'mx.dest.example', priority: 10 }]);
    expect(dns.queries).toEqual(['MX dest.example']);
    clock.advance(1);
    await cache.mx('dest.example');
    expect(dns.queries).toEqual(['MX dest.example', 'MX dest.example']);
  });

  it('keeps an MX answer with a short TTL no longer than that, raised to the floor', async () => {
    const { clock, dns, cache } = setup();
    dns.mxAnswer = { records: [{ exchange: 'mx.dest.example', priority: 10 }], ttl: 20 };
    await cache.mx('dest.example');
    clock.advance(19_999);
    await cache.mx('dest.example');
    expect(dns.queries).toHaveLength(1);
    clock.advance(1);
    await cache.mx('dest.example');
    expect(dns.queries).toHaveLength(2);
    dns.mxAnswer = { records: [{ exchange: 'mx.dest.example', priority: 10 }], ttl: 0 };
    clock.advance(20_000);
    await cache.mx('dest.example');
    clock.advance(DNS_CACHE_LIMITS.minSeconds * 1000 - 1);
    await cache.mx('dest.example');
    expect(dns.queries).toHaveLength(3);
  });

  it('keeps "no such records" for negativeSeconds, with the same error', async () => {
    const { clock, dns, cache } = setup();
    await expect(cache.aaaa('mx.dest.example')).rejects.toMatchObject({ failure: 'nodata' });
    clock.advance(DNS_CACHE_LIMITS.negativeSeconds * 1000 - 1);
    await expect(cache.aaaa('mx.dest.example')).rejects.toMatchObject({ failure: 'nodata' });
    expect(dns.queries).toEqual(['AAAA mx.dest.example']);
    clock.advance(1);
    dns.aaaaAnswer = [{ address: '2001:db8::1', ttl: 60 }];
    expect(await cache.aaaa('mx.dest.example')).toEqual(['2001:db8::1']);
  });

  it('answers a temporary failure from memory a moment, then asks again', async () => {
    const { clock, dns, cache } = setup();
    dns.mxAnswer = new DnsError('temporary', 'SERVFAIL');
    await expect(cache.mx('dest.example')).rejects.toMatchObject({ failure: 'temporary' });
    dns.mxAnswer = { records: [{ exchange: 'mx.dest.example', priority: 10 }], ttl: 300 };
    clock.advance(DNS_CACHE_LIMITS.temporarySeconds * 1000 - 1);
    await expect(cache.mx('dest.example')).rejects.toMatchObject({ failure: 'temporary' });
    clock.advance(1);
    expect(await cache.mx('dest.example')).toHaveLength(1);
    expect(dns.queries).toEqual(['MX dest.example', 'MX dest.example']);
  });

  it('sends one query for look-ups of the same name made while it is in flight', async () => {
    const { dns, cache } = setup();
    let open!: () => void;
    dns.gate = new Promise((r) => (open = r));
    const answers = Promise.all([cache.a('mx.dest.example'), cache.a('mx.dest.example')]);
    open();
    expect(await answers).toEqual([['192.0.2.1'], ['192.0.2.1']]);
    expect(dns.queries).toEqual(['A mx.dest.example']);
  });

  it('keeps at most maxEntries names, dropping the oldest', async () => {
    const clock = new ManualClock();
    const dns = new TableDns();
    const cache = new DnsCache(dns, () => clock.now(), { ...DNS_CACHE_LIMITS, maxEntries: 2 });
    await cache.a('one.example');
    await cache.a('two.example');
    await cache.a('three.example');
    await cache.a('three.example');
    await cache.a('two.example');
    expect(dns.queries).toEqual(['A one.example', 'A two.example', 'A three.example']);
    await cache.a('one.example');
    expect(dns.queries).toHaveLength(4);
  });
});
