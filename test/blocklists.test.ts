import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookUp, REASON_MAX } from '../src/blocklists/lookup.js';
import { BlocklistMonitor, DEFAULT_BLOCKLIST_MONITOR_OPTIONS } from '../src/blocklists/monitor.js';
import {
  lookups,
  nextListing,
  queryName,
  verdictOf,
  type BlocklistTarget,
  type Listing,
} from '../src/blocklists/query.js';
import { blocklistStatus } from '../src/blocklists/status-section.js';
import { blocklistPlanNow, blocklistTargets, RETURN_PATH_NAMES_MAX } from '../src/blocklists/targets.js';
import { DEFAULT_BLOCKLIST_ZONES, parseBlocklistZones } from '../src/blocklists/zones.js';
import { ManualClock } from '../src/clock.js';
import { parseConfig } from '../src/config.js';
import { SourceIpPool, usableSources } from '../src/delivery/source-ip-pool.js';
import { DnsResolver } from '../src/dns/resolver.js';
import { capturedLog } from './helpers/captured-log.js';
import { databaseKinds } from './helpers/databases.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { startTestEnv, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';

const address = (target: string): BlocklistTarget => ({ target, kind: 'address' });
const name = (target: string): BlocklistTarget => ({ target, kind: 'name' });

describe('TXMAIL_DNSBL_ZONES', () => {
  it('defaults to the common public lists, names zones marked', () => {
    expect(parseBlocklistZones(DEFAULT_BLOCKLIST_ZONES)).toEqual([
      { zone: 'zen.spamhaus.org', kind: 'addresses' },
      { zone: 'bl.spamcop.net', kind: 'addresses' },
      { zone: 'b.barracudacentral.org', kind: 'addresses' },
      { zone: 'dbl.spamhaus.org', kind: 'names' },
    ]);
    expect(parseConfig({}).blocklistZones).toHaveLength(4);
  });

  it('reads kinds, case and trailing dots; none turns monitoring off', () => {
    expect(parseBlocklistZones(' BL.Test.:addresses , dbl.test:names,')).toEqual([
      { zone: 'bl.test', kind: 'addresses' },
      { zone: 'dbl.test', kind: 'names' },
    ]);
    expect(parseBlocklistZones('None')).toEqual([]);
    expect(parseConfig({ TXMAIL_DNSBL_ZONES: 'none' }).blocklistZones).toEqual([]);
  });

  it.each([
    ['bl.test:domains', /must be addresses or names/],
    ['localhost', /not a DNS zone/],
    ['bl..test', /not a DNS zone/],
    ['bl.test, bl.test:names', /listed twice/],
    [',', /no zone given/],
  ])('refuses %s', (value, message) => {
    expect(() => parseBlocklistZones(value)).toThrow(message);
    expect(() => parseConfig({ TXMAIL_DNSBL_ZONES: value })).toThrow(/TXMAIL_DNSBL_ZONES/);
  });

  it('reads the interval and the operator address', () => {
    const c = parseConfig({ TXMAIL_DNSBL_INTERVAL: '15m', TXMAIL_OPERATOR_EMAIL: 'Ops@Example.com' });
    expect(c.blocklistIntervalMs).toBe(900_000);
    expect(c.operatorEmail).toBe('ops@example.com');
    expect(parseConfig({}).blocklistIntervalMs).toBe(3_600_000);
    expect(parseConfig({}).operatorEmail).toBeUndefined();
    expect(() => parseConfig({ TXMAIL_DNSBL_INTERVAL: '0' })).toThrow(
      /TXMAIL_DNSBL_INTERVAL: must be at least 1s/,
    );
    expect(() => parseConfig({ TXMAIL_OPERATOR_EMAIL: 'Ops <ops@example.com>' })).toThrow(
      /TXMAIL_OPERATOR_EMAIL/,
    );
  });
});

describe('query names', () => {
  it.each([
    [address('192.0.2.99'), '99.2.0.192.bl.test'],
    [address('127.0.0.2'), '2.0.0.127.bl.test'],
    [address('2001:db8::1:2'), '2.0.0.0.1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.bl.test'],
    [name('Mta.Example.com.'), 'mta.example.com.bl.test'],
  ])('%o → %s', (target, expected) => {
    expect(queryName(target, 'bl.test')).toBe(expected);
  });

  it('asks address zones about addresses and names zones about names', () => {
    const planned = lookups(
      [address('192.0.2.1'), name('example.com')],
      [
        { zone: 'bl.test', kind: 'addresses' },
        { zone: 'dbl.test', kind: 'names' },
      ],
    );
    expect(planned.map((p) => p.name)).toEqual(['1.2.0.192.bl.test', 'example.com.dbl.test']);
  });

  it('looks up the sending addresses and the public names the service uses', () => {
    expect(
      blocklistTargets({
        sourceIps: ['192.0.2.1', '2001:db8::1'],
        hostname: 'mta.example.com',
        testDomain: 'test.mta.example.com',
        inboundMx: 'mta.example.com',
        spfDomain: 'spf.mta.example.com',
      }),
    ).toEqual([
      address('192.0.2.1'),
      address('2001:db8::1'),
      name('mta.example.com'),
      name('test.mta.example.com'),
      name('spf.mta.example.com'),
    ]);
    // A bare host name is no public name.
    expect(
      blocklistTargets({
        sourceIps: [],
        hostname: 'a1b2c3',
        testDomain: 't.example',
        inboundMx: 'a1b2c3',
        spfDomain: 's.example',
      }),
    ).toEqual([name('t.example'), name('s.example')]);
  });

  it("adds the customers' return-path names, at most RETURN_PATH_NAMES_MAX of them", async () => {
    const limits: number[] = [];
    const settings = {
      sourceIps: ['192.0.2.1'],
      hostname: 'mta.example.com',
      testDomain: 'test.mta.example.com',
      inboundMx: 'mta.example.com',
      spfDomain: 'spf.mta.example.com',
      returnPathLabel: 'bounces',
      blocklistZones: [{ zone: 'dbl.test', kind: 'names' as const }],
    };
    const domains = {
      sendableNames: async (limit: number) => {
        limits.push(limit);
        return ['acme.example', 'beta.example'];
      },
    };
    const plan = await blocklistPlanNow(settings, domains);
    expect(plan.targets.slice(-2)).toEqual([name('bounces.acme.example'), name('bounces.beta.example')]);
    expect(limits).toEqual([RETURN_PATH_NAMES_MAX]);
    expect(RETURN_PATH_NAMES_MAX).toBe(2000);
    // Monitoring off: the domains are not read.
    await blocklistPlanNow({ ...settings, blocklistZones: [] }, domains);
    expect(limits).toHaveLength(1);
  });
});

describe('verdicts', () => {
  it.each([
    [{ addresses: ['127.0.0.2'] }, { kind: 'listed', answer: '127.0.0.2' }],
    [
      { addresses: ['127.0.0.4', '127.0.0.2', '127.0.0.4'] },
      { kind: 'listed', answer: '127.0.0.2, 127.0.0.4' },
    ],
    [{ failure: 'nxdomain', message: 'x' }, { kind: 'clear' }],
    [{ failure: 'nodata', message: 'x' }, { kind: 'clear' }],
    [{ addresses: [] }, { kind: 'clear' }],
    [
      { failure: 'temporary', message: 'A look-up timed out' },
      { kind: 'unknown', error: 'A look-up timed out' },
    ],
    [
      { addresses: ['127.255.255.254'] },
      {
        kind: 'refused',
        answer: '127.255.255.254',
        error: expect.stringMatching(/public or open resolvers/),
      },
    ],
    [
      { addresses: ['127.255.255.255'] },
      { kind: 'refused', answer: '127.255.255.255', error: expect.stringMatching(/too many/) },
    ],
    [
      { addresses: ['127.255.255.1'] },
      { kind: 'refused', answer: '127.255.255.1', error: expect.stringMatching(/refused/) },
    ],
    [
      { addresses: ['198.51.100.7'] },
      { kind: 'refused', answer: '198.51.100.7', error: expect.stringMatching(/not a blocklist answer/) },
    ],
  ] as const)('%o → %o', (outcome, verdict) => {
    expect(verdictOf(outcome)).toEqual(verdict);
  });

  const key = { target: address('192.0.2.1'), zone: 'bl.test' };
  const listed = (at: number): Listing =>
    nextListing(undefined, key, { kind: 'listed', answer: '127.0.0.2' }, 'spam', at).listing;

  it('reports a new listing, keeps its start while it lasts, reports its end', () => {
    const first = nextListing(undefined, key, { kind: 'listed', answer: '127.0.0.2' }, 'spam', 1000);
    expect(first.change).toBe('listed');
    expect(first.listing).toMatchObject({
      listed: true,
      listedSince: 1000,
      answer: '127.0.0.2',
      reason: 'spam',
    });
    const again = nextListing(first.listing, key, { kind: 'listed', answer: '127.0.0.3' }, null, 2000);
    expect(again.change).toBeUndefined();
    expect(again.listing).toMatchObject({ listedSince: 1000, answer: '127.0.0.3', checkedAt: 2000 });
    const gone = nextListing(again.listing, key, { kind: 'clear' }, null, 3000);
    expect(gone.change).toBe('delisted');
    expect(gone.listing).toMatchObject({ listed: false, listedSince: null, answer: null, reason: null });
    expect(nextListing(gone.listing, key, { kind: 'clear' }, null, 4000).change).toBeUndefined();
  });

  it('keeps the previous verdict when the list gives none (timeout, refused query)', () => {
    const unknown = nextListing(listed(1000), key, { kind: 'unknown', error: 'timed out' }, null, 2000);
    expect(unknown.change).toBeUndefined();
    expect(unknown.listing).toMatchObject({
      listed: true,
      listedSince: 1000,
      error: 'timed out',
      checkedAt: 2000,
    });
    const refused = nextListing(
      undefined,
      key,
      { kind: 'refused', answer: '127.255.255.254', error: 'refuses public resolvers' },
      null,
      2000,
    );
    expect(refused.change).toBeUndefined();
    expect(refused.listing).toMatchObject({ listed: false, error: 'refuses public resolvers' });
    // The next usable answer clears the error.
    expect(nextListing(refused.listing, key, { kind: 'clear' }, null, 3000).listing.error).toBeNull();
  });
});

describe('source addresses while listed', () => {
  it('sets listed addresses aside while others remain, and uses all when all are listed', () => {
    const pool = new SourceIpPool([{ address: '192.0.2.1' }, { address: '192.0.2.2' }], [], Date.now);
    pool.setListed(new Set(['192.0.2.2']));
    expect([pool.take(), pool.take(), pool.take()]).toEqual(Array(3).fill({ address: '192.0.2.1' }));
    pool.setListed(new Set(['192.0.2.1', '192.0.2.2']));
    const all = new Set([pool.take(), pool.take()].map((c) => ('address' in c ? c.address : c)));
    expect(all).toEqual(new Set(['192.0.2.1', '192.0.2.2']));
    pool.setListed(new Set());
    expect(new Set([pool.take(), pool.take()].map((c) => ('address' in c ? c.address : c)))).toEqual(all);
    expect(usableSources(['a', 'b'], new Set(['a']))).toEqual(['b']);
    expect(usableSources(['a', 'b'], new Set(['a', 'b']))).toEqual(['a', 'b']);
    // The same rule for the pool's addresses (setListed), the status section and the operator's mail.
    const ips = [{ address: 'a' }, { address: 'b', warmingSince: '2026-11-01' }];
    expect(usableSources(ips, new Set(['b']))).toEqual([{ address: 'a' }]);
    expect(usableSources(ips, new Set(['a', 'b']))).toEqual(ips);
  });
});

describe('the status section', () => {
  const plan = {
    targets: [address('192.0.2.1'), address('192.0.2.2'), name('example.com')],
    zones: [
      { zone: 'bl.test', kind: 'addresses' as const },
      { zone: 'dbl.test', kind: 'names' as const },
    ],
    sourceIps: ['192.0.2.1', '192.0.2.2'],
  };
  const now = Date.parse('2026-11-24T12:00:00Z');
  const row = (target: string, zone: string, listed: boolean, error: string | null = null): Listing => ({
    target,
    zone,
    kind: target.startsWith('192') ? 'address' : 'name',
    listed,
    answer: listed ? '127.0.0.2' : null,
    reason: listed ? 'see https://bl.test/lookup' : null,
    error,
    checkedAt: now - 60_000,
    listedSince: listed ? now - 3_600_000 : null,
  });

  it('alerts on a listing and names the addresses still in use', () => {
    const s = blocklistStatus(
      [
        row('192.0.2.1', 'bl.test', false),
        row('192.0.2.2', 'bl.test', true),
        row('example.com', 'dbl.test', false, 'the list refuses queries from public or open resolvers'),
        // A zone no longer configured is not reported.
        row('192.0.2.1', 'old.test', true),
      ],
      { nextRunAt: now + 3_540_000, lastRunAt: now - 60_000 },
      plan,
      now,
    );
    expect(s.alert).toBe(true);
    expect(s.lines).toEqual([
      'LISTED: 192.0.2.2 on bl.test since 2026-11-24T11:00:00.000Z (answer 127.0.0.2): see https://bl.test/lookup',
      'mail leaves only from 192.0.2.1 while 192.0.2.2 is listed',
      'dbl.test gave no verdict for 1 look-up: the list refuses queries from public or open resolvers',
      '3 look-ups in 2 zones, last checked 60 s ago',
    ]);
    expect(s.json).toMatchObject({ sources_in_use: ['192.0.2.1'], all_sources_listed: false });
  });

  it('says when every address is listed, when nothing is, and when monitoring is off', () => {
    const all = blocklistStatus(
      [row('192.0.2.1', 'bl.test', true), row('192.0.2.2', 'bl.test', true)],
      { nextRunAt: now, lastRunAt: now },
      plan,
      now,
    );
    expect(all.lines).toContain(
      'every sending address is listed: mail still leaves from all of them (txmail never stops all mail)',
    );
    expect(all.json).toMatchObject({ sources_in_use: ['192.0.2.1', '192.0.2.2'], all_sources_listed: true });
    const clear = blocklistStatus(
      [row('192.0.2.1', 'bl.test', false)],
      { nextRunAt: now, lastRunAt: now },
      plan,
      now,
    );
    expect(clear.alert).toBe(false);
    expect(clear.lines).toEqual(['1 look-ups in 2 zones, last checked 0 s ago, nothing listed']);
    expect(blocklistStatus([], undefined, plan, now).lines).toEqual([
      'not checked yet (2 zones; a worker checks when it starts)',
    ]);
    expect(blocklistStatus([], undefined, { ...plan, zones: [] }, now)).toMatchObject({
      alert: false,
      lines: ['monitoring is off (TXMAIL_DNSBL_ZONES=none)'],
    });
  });
});

describe('look-ups over DNS', () => {
  let dns: TestDnsServer;
  let resolver: DnsResolver;
  beforeAll(async () => {
    dns = await new TestDnsServer().start();
    resolver = new DnsResolver([dns.address], 500);
  });
  afterAll(() => dns.stop());

  it('reads the listing and its reason (capped, control characters replaced)', async () => {
    dns.add('2.0.0.127.bl.test', 'A', '127.0.0.2');
    dns.add('2.0.0.127.bl.test', 'TXT', `Listed\u0007 because ${'x'.repeat(400)}`);
    const { verdict, reason } = await lookUp(resolver, '2.0.0.127.bl.test');
    expect(verdict).toEqual({ kind: 'listed', answer: '127.0.0.2' });
    expect(reason!.startsWith('Listed\ufffd because xxx')).toBe(true);
    expect(reason).toHaveLength(REASON_MAX + 1);
    expect(reason!.endsWith('…')).toBe(true);
  });

  it('answers clear for NXDOMAIN, unknown for SERVFAIL, refused for the query-refused code', async () => {
    expect(await lookUp(resolver, '9.2.0.192.bl.test')).toEqual({ verdict: { kind: 'clear' }, reason: null });
    dns.breakName('8.2.0.192.bl.test');
    expect((await lookUp(resolver, '8.2.0.192.bl.test')).verdict).toMatchObject({ kind: 'unknown' });
    dns.add('7.2.0.192.bl.test', 'A', '127.255.255.254');
    expect((await lookUp(resolver, '7.2.0.192.bl.test')).verdict).toMatchObject({ kind: 'refused' });
  });
});

describe.each(databaseKinds)('the blocklist store on $name', (kind) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv(kind);
  });
  afterAll(async () => env.close());

  it('keeps one verdict per target and zone, and forgets what is no longer configured', async () => {
    const repo = env.services.repos.blocklists;
    const key = { target: address('192.0.2.1'), zone: 'bl.test' };
    const first = nextListing(undefined, key, { kind: 'listed', answer: '127.0.0.2' }, 'spam', 1000).listing;
    const name1 = nextListing(
      undefined,
      { target: name('example.com'), zone: 'dbl.test' },
      { kind: 'clear' },
      null,
      1000,
    ).listing;
    await repo.save([first, name1]);
    expect(await repo.all()).toEqual([first, name1]);
    const again = nextListing(first, key, { kind: 'unknown', error: 'timed out' }, null, 2000).listing;
    await repo.save([again]);
    expect(await repo.all()).toEqual([again, name1]);
    expect(await repo.listedAddresses(['bl.test'])).toEqual(new Set(['192.0.2.1']));
    expect(await repo.listedAddresses(['other.test'])).toEqual(new Set());
    expect(await repo.listedAddresses([])).toEqual(new Set());
    await repo.keepOnly([{ target: 'example.com', zone: 'dbl.test' }]);
    expect(await repo.all()).toEqual([name1]);
  });

  it('lets one process take each check; a lost check is due again after its lease', async () => {
    const repo = env.services.repos.blocklists;
    const claims = await Promise.all(['a', 'b', 'c'].map((owner) => repo.claimRun(owner, 10_000, 20_000)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = ['a', 'b', 'c'][claims.indexOf(true)]!;
    expect(await repo.claimRun('d', 15_000, 25_000)).toBe(false);
    // The holder died: after its lease, another process takes the check.
    expect(await repo.claimRun('d', 20_000, 30_000)).toBe(true);
    expect(await repo.finishRun(winner, 21_000, 99_000)).toBe(false);
    expect(await repo.finishRun('d', 21_000, 3_621_000)).toBe(true);
    expect(await repo.schedule()).toEqual({ nextRunAt: 3_621_000, lastRunAt: 21_000 });
    expect(await repo.claimRun('a', 3_620_999, 4_000_000)).toBe(false);
    expect(await repo.claimRun('a', 3_621_000, 4_000_000)).toBe(true);
    await repo.releaseRun('a', 3_700_000);
    expect(await repo.claimRun('b', 3_700_000, 4_000_000)).toBe(true);
    await repo.finishRun('b', 0, 0);
  });

  it('checks once per interval however many monitors run', async () => {
    const dns = await new TestDnsServer().start();
    try {
      dns.add('2.0.0.127.bl.test', 'A', '127.0.0.2');
      const clock = new ManualClock(Date.parse('2026-11-24T12:00:00Z'));
      const reports: number[] = [];
      const log = capturedLog();
      const monitors = [1, 2, 3].map(
        (i) =>
          new BlocklistMonitor(
            env.services.repos.blocklists,
            new DnsResolver([dns.address], 500),
            clock,
            log.logger,
            {
              targets: [address('127.0.0.1'), address('127.0.0.2')],
              zones: [{ zone: 'bl.test', kind: 'addresses' }],
            },
            async (result) => void reports.push(i, result.changes.length),
            { ...DEFAULT_BLOCKLIST_MONITOR_OPTIONS, intervalMs: 3_600_000, owner: `m${i}` },
          ),
      );
      await env.services.db.kysely.deleteFrom('blocklist_schedule').execute();
      const ran = await Promise.all(monitors.map((m) => m.tick()));
      expect(ran.filter(Boolean)).toHaveLength(1);
      expect(reports[1]).toBe(1);
      const lines = log
        .text()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { level: number; msg: string; target?: string; zone?: string });
      expect(lines.filter((l) => l.msg === 'listed on a blocklist')).toEqual([
        expect.objectContaining({ level: 40, target: '127.0.0.2', zone: 'bl.test' }),
      ]);
      clock.advance(3_599_000);
      expect((await Promise.all(monitors.map((m) => m.tick()))).filter(Boolean)).toHaveLength(0);
      clock.advance(1000);
      dns.remove('2.0.0.127.bl.test');
      expect((await Promise.all(monitors.map((m) => m.tick()))).filter(Boolean)).toHaveLength(1);
      // The second check saw the listing end.
      expect(reports[3]).toBe(1);
      expect((await env.services.repos.blocklists.all()).map((l) => [l.target, l.listed])).toEqual([
        ['127.0.0.1', false],
        ['127.0.0.2', false],
      ]);
    } finally {
      await dns.stop();
    }
  });

  it('reports nothing from a check whose claim ran out: the process that took it over reports', async () => {
    const dns = await new TestDnsServer().start();
    try {
      dns.add('2.0.0.127.bl.test', 'A', '127.0.0.2');
      const repo = env.services.repos.blocklists;
      await env.services.db.kysely.deleteFrom('blocklist_schedule').execute();
      await env.services.db.kysely.deleteFrom('blocklist_listings').execute();
      const clock = new ManualClock(Date.parse('2026-11-24T12:00:00Z'));
      const options = { ...DEFAULT_BLOCKLIST_MONITOR_OPTIONS, intervalMs: 3_600_000 };
      const plan = {
        targets: [address('127.0.0.2')],
        zones: [{ zone: 'bl.test', kind: 'addresses' as const }],
      };
      const reports: string[] = [];
      const resolver = new DnsResolver([dns.address], 500);
      let stolen = false;
      // The slow process's look-up outlasts its lease; meanwhile another process takes the check.
      const slowDns = {
        a: async (n: string) => {
          if (!stolen) {
            stolen = true;
            clock.advance(options.leaseMs);
            expect(await other.tick()).toBe(true);
          }
          return resolver.a(n);
        },
        txt: (n: string) => resolver.txt(n),
      };
      const log = capturedLog();
      const slow = new BlocklistMonitor(
        repo,
        slowDns,
        clock,
        log.logger,
        plan,
        async (r) => void reports.push(`slow ${r.changes.length}`),
        { ...options, owner: 'slow' },
      );
      const other = new BlocklistMonitor(
        repo,
        resolver,
        clock,
        capturedLog().logger,
        plan,
        async (r) => void reports.push(`other ${r.changes.length}`),
        { ...options, owner: 'other' },
      );
      expect(await slow.tick()).toBe(false);
      expect(reports).toEqual(['other 1']);
      expect(slow.runs).toBe(0);
      expect(log.text()).toContain('blocklist check outlasted its claim');
      // The schedule is the other process's: next due an interval after its check.
      expect(await repo.schedule()).toEqual({ nextRunAt: clock.now() + 3_600_000, lastRunAt: clock.now() });
    } finally {
      await dns.stop();
    }
  });

  it('gives a check back unfinished when stopped mid-way, storing nothing', async () => {
    // A DNS server that never answers: the look-up is in flight when the monitor stops.
    const silent = createSocket('udp4');
    let queries = 0;
    silent.on('message', () => queries++);
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      const repo = env.services.repos.blocklists;
      await env.services.db.kysely.deleteFrom('blocklist_schedule').execute();
      await env.services.db.kysely.deleteFrom('blocklist_listings').execute();
      const checked: unknown[] = [];
      const monitor = new BlocklistMonitor(
        repo,
        new DnsResolver([`127.0.0.1:${silent.address().port}`], 60_000),
        { now: () => 5_000 },
        capturedLog().logger,
        { targets: [address('192.0.2.1')], zones: [{ zone: 'bl.test', kind: 'addresses' }] },
        async (result) => void checked.push(result),
        { ...DEFAULT_BLOCKLIST_MONITOR_OPTIONS, intervalMs: 3_600_000, owner: 'stopping' },
      );
      monitor.start();
      await until('the look-up sent', async () => (queries > 0 ? true : undefined));
      expect(await repo.schedule()).toMatchObject({
        nextRunAt: 5_000 + DEFAULT_BLOCKLIST_MONITOR_OPTIONS.leaseMs,
      });
      await monitor.stop();
      expect(checked).toEqual([]);
      expect(monitor.runs).toBe(0);
      expect(await repo.all()).toEqual([]);
      // Due again at once, for another process.
      expect(await repo.schedule()).toEqual({ nextRunAt: 5_000, lastRunAt: null });
    } finally {
      silent.close();
    }
  });
});
