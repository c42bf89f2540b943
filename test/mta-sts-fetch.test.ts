// MTA-STS discovery against real parts: the DNS test server answers `_mta-sts.<domain>` TXT and
// `mta-sts.<domain>` A (a loopback address), a real HTTPS server there serves the policy with a
// certificate of the test CA, and the policies are stored in the real database. Time is driven.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { openDatabase, migrate, type Db } from '../src/db/database.js';
import { MtaStsRepo } from '../src/db/mta-sts-repo.js';
import { DnsResolver } from '../src/dns/resolver.js';
import { MtaStsPolicies, type MtaStsOptions } from '../src/mta-sts/mta-sts-policies.js';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { HttpsSite } from './helpers/https-site.js';
import { TestCa } from './helpers/test-ca.js';
import { until } from './helpers/wait.js';

const SITE_IP = '127.0.0.81';
const policy = (mode: string, mx: string[], maxAge: number) =>
  ['version: STSv1', `mode: ${mode}`, ...mx.map((m) => `mx: ${m}`), `max_age: ${maxAge}`, ''].join('\r\n');

let ca: TestCa;
let dns: TestDnsServer;
let site: HttpsSite;

beforeAll(async () => {
  ca = new TestCa();
  dns = await new TestDnsServer().start();
  site = await new HttpsSite(SITE_IP, ca.issue(['fallback.invalid'])).start();
});
afterAll(async () => {
  await site?.stop();
  await dns?.stop();
  ca?.remove();
});

describe.each(databaseKinds)('MTA-STS discovery on $name', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let clock: ManualClock;
  let n = 0;
  const logger = pino({ level: 'silent' });

  beforeAll(async () => {
    database = await kind.create();
    db = openDatabase(database.url);
    await migrate(db);
    clock = new ManualClock(Date.UTC(2026, 0, 10, 12));
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  /** A new recipient domain (names differ per database, as the DNS and HTTPS servers are shared). */
  const domain = (options: { id?: string; cert?: boolean } = {}) => {
    const name = `d${++n}.${kind.name}.example`;
    const host = `mta-sts.${name}`;
    dns.add(`_mta-sts.${name}`, 'TXT', `v=STSv1; id=${options.id ?? 'one'}`);
    dns.add(host, 'A', SITE_IP);
    if (options.cert !== false) site.certificate(host, ca.issue([host]));
    return { name, host };
  };
  /** `host` answers `body` only once the answered function is called (a slow policy host). */
  const slowly = (host: string, body: string): (() => void) => {
    let release!: () => void;
    site.answer(host, { body, held: new Promise<void>((r) => (release = r)) });
    return () => release();
  };
  const policies = (options: Partial<MtaStsOptions> = {}) =>
    new MtaStsPolicies(new DnsResolver([dns.address]), new MtaStsRepo(db.kysely), clock, logger, {
      allowPrivate: true,
      ca: ca.ca,
      recheckMs: 60_000,
      ...options,
    });

  /**
   * The requirement once the policy fetch started by the first ask has answered, the clock standing
   * still: a fetch that outlasts a short fetchWaitMs (a busy machine) goes on and is answered later.
   */
  const fetched = (p: MtaStsPolicies, name: string) =>
    until(`the policy of ${name} fetched`, async () => {
      const r = await p.requirement(name);
      return r?.policy === 'mta-sts' ? r : undefined;
    });

  it('fetches the policy once, answers from memory, and other processes from the table', async () => {
    const d = domain();
    site.answer(d.host, { body: policy('enforce', ['mx1.allowed.example', '*.allowed.example'], 86400) });
    const p = policies();
    expect(await p.requirement(d.name)).toEqual({
      policy: 'mta-sts',
      requireVerified: true,
      sts: 'enforce',
      mxPatterns: ['mx1.allowed.example', '*.allowed.example'],
      policyDomain: d.name,
      policyStrings: [
        'version: STSv1',
        'mode: enforce',
        'mx: mx1.allowed.example',
        'mx: *.allowed.example',
        'max_age: 86400',
      ],
    });
    expect(site.to(d.host)).toHaveLength(1);
    expect(site.to(d.host)[0]!.path).toBe('/.well-known/mta-sts.txt');

    // From memory, and after the recheck from the table (the TXT id unchanged): no second request.
    expect(await p.requirement(d.name.toUpperCase())).toMatchObject({ policy: 'mta-sts' });
    clock.advance(61_000);
    expect(await p.requirement(d.name)).toMatchObject({ policy: 'mta-sts' });
    expect(await policies().requirement(d.name)).toMatchObject({ policy: 'mta-sts' });
    expect(site.to(d.host)).toHaveLength(1);
    expect(p.fetches).toBe(1);
  });

  it('parses a stored policy once per process, not at every discovery', async () => {
    const d = domain();
    site.answer(d.host, { body: policy('enforce', ['mx.parsed.example'], 86400) });
    const fetching = policies();
    const expected = { policy: 'mta-sts', policyStrings: expect.arrayContaining(['mx: mx.parsed.example']) };
    expect(await fetching.requirement(d.name)).toMatchObject(expected);
    // The process that fetched it has its lines from the fetch.
    expect(fetching.parses).toBe(0);
    const other = policies();
    for (let i = 0; i < 3; i++) {
      expect(await other.requirement(d.name)).toMatchObject(expected);
      expect(await fetching.requirement(d.name)).toMatchObject(expected);
      clock.advance(61_000);
    }
    expect(other.parses).toBe(1);
    expect(fetching.parses).toBe(0);
    expect(fetching.fetches + other.fetches).toBe(1);
  });

  it('fetches once for concurrent deliveries', async () => {
    const d = domain();
    site.answer(d.host, { body: policy('testing', ['mx.other.example'], 86400) });
    const p = policies();
    const all = await Promise.all(Array.from({ length: 8 }, () => p.requirement(d.name)));
    for (const r of all) expect(r).toMatchObject({ policy: 'mta-sts-testing', requireVerified: false });
    expect(site.to(d.host)).toHaveLength(1);
  });

  it('refreshes when the TXT id changes and when max_age ends; mode none removes the policy', async () => {
    const d = domain({ id: 'one' });
    site.answer(d.host, { body: policy('testing', ['mx.a.example'], 3600) });
    const p = policies();
    expect(await p.requirement(d.name)).toMatchObject({
      policy: 'mta-sts-testing',
      mxPatterns: ['mx.a.example'],
    });

    // A new id: fetched again at the next recheck.
    dns.remove(`_mta-sts.${d.name}`, 'TXT').add(`_mta-sts.${d.name}`, 'TXT', 'v=STSv1; id=two');
    site.answer(d.host, { body: policy('enforce', ['mx.b.example'], 3600) });
    clock.advance(61_000);
    expect(await p.requirement(d.name)).toMatchObject({ policy: 'mta-sts', mxPatterns: ['mx.b.example'] });
    expect(site.to(d.host)).toHaveLength(2);

    // Same id, policy past its max_age: fetched again.
    site.answer(d.host, { body: policy('enforce', ['mx.c.example'], 3600) });
    clock.advance(3_600_000);
    expect(await p.requirement(d.name)).toMatchObject({ policy: 'mta-sts', mxPatterns: ['mx.c.example'] });
    expect(site.to(d.host)).toHaveLength(3);

    // mode none: no policy applies any more, and the stored one is replaced.
    dns.remove(`_mta-sts.${d.name}`, 'TXT').add(`_mta-sts.${d.name}`, 'TXT', 'v=STSv1; id=three');
    site.answer(d.host, { body: policy('none', [], 3600) });
    clock.advance(61_000);
    expect(await p.requirement(d.name)).toBeUndefined();
    expect((await new MtaStsRepo(db.kysely).get(d.name))?.mode).toBe('none');
  });

  it('keeps applying an unexpired policy when its refresh fails or its TXT record is gone', async () => {
    const d = domain({ id: 'one' });
    site.answer(d.host, { body: policy('enforce', ['mx.kept.example'], 3600) });
    const p = policies();
    expect(await p.requirement(d.name)).toMatchObject({ policy: 'mta-sts' });

    dns.remove(`_mta-sts.${d.name}`, 'TXT').add(`_mta-sts.${d.name}`, 'TXT', 'v=STSv1; id=two');
    site.answer(d.host, { status: 500, body: 'down' });
    clock.advance(61_000);
    expect(await p.requirement(d.name)).toMatchObject({ policy: 'mta-sts', mxPatterns: ['mx.kept.example'] });
    expect(site.to(d.host)).toHaveLength(2);

    // The TXT record removed: the stored policy still applies until it expires (RFC 8461 §5.1).
    dns.remove(`_mta-sts.${d.name}`, 'TXT');
    clock.advance(61_000);
    expect(await p.requirement(d.name)).toMatchObject({ policy: 'mta-sts' });
    // …and then no policy.
    clock.advance(3_600_000);
    expect(await p.requirement(d.name)).toBeUndefined();
  });

  it('waits a while for a slow policy host, then goes on without it, and applies the policy once it comes', async () => {
    const p = policies({ fetchWaitMs: 150 });
    const slow = domain();
    const release = slowly(slow.host, policy('enforce', ['mx.example.com'], 86400));
    expect(await p.requirement(slow.name)).toMatchObject({
      policy: 'opportunistic',
      policyFailure: {
        type: 'sts-policy-fetch-error',
        detail: `${slow.host} did not answer within 150 ms; still fetching`,
      },
    });
    // Another delivery meanwhile joins the fetch under way rather than starting one.
    clock.advance(61_000);
    expect((await p.requirement(slow.name))?.policy).toBe('opportunistic');
    release();
    await until('the policy fetched late applies', async () =>
      (await p.requirement(slow.name))?.policy === 'mta-sts' ? true : undefined,
    );
    expect(site.to(slow.host)).toHaveLength(1);
    expect(p.fetches).toBe(1);
    // Stored: another process finds it in the table.
    expect(await policies().requirement(slow.name)).toMatchObject({ policy: 'mta-sts', sts: 'enforce' });
  });

  it('drops a late fetch of an id the record no longer names, and ends fetches under way on close', async () => {
    const p = policies({ fetchWaitMs: 100 });
    const d = domain({ id: 'old' });
    const release = slowly(d.host, policy('enforce', ['old-mx.example'], 86400));
    expect((await p.requirement(d.name))?.policy).toBe('opportunistic');
    // The domain publishes a new policy under a new id, fetched at once.
    dns.remove(`_mta-sts.${d.name}`, 'TXT');
    dns.add(`_mta-sts.${d.name}`, 'TXT', 'v=STSv1; id=new');
    site.answer(d.host, { body: policy('enforce', ['new-mx.example'], 86400) });
    clock.advance(61_000);
    // Within the fetch's wait, or (a busy machine) just after it: no later discovery is needed.
    expect(await fetched(p, d.name)).toMatchObject({ policy: 'mta-sts', mxPatterns: ['new-mx.example'] });
    // The old id's answer lands late: neither answered nor stored over the new one.
    release();
    await until('the old fetch answered', async () => (site.to(d.host).length === 2 ? true : undefined));
    await until('the old fetch ended', async () => (p.fetchesUnderway === 0 ? true : undefined));
    expect(await p.requirement(d.name)).toMatchObject({ mxPatterns: ['new-mx.example'] });
    expect(await policies().requirement(d.name)).toMatchObject({ mxPatterns: ['new-mx.example'] });

    // A fetch no delivery waits for any more ends at close, and stores nothing.
    const q = policies({ fetchWaitMs: 100 });
    const stopped = domain();
    const never = slowly(stopped.host, policy('enforce', ['mx.example.com'], 86400));
    expect((await q.requirement(stopped.name))?.policy).toBe('opportunistic');
    q.close();
    never();
    await until('the fetch under way ended', async () => (q.fetchesUnderway === 0 ? true : undefined));
    expect(await new MtaStsRepo(db.kysely).get(stopped.name)).toBeUndefined();
  });

  it('runs at most so many fetches at once; past it, mail goes on without the policy until a later discovery', async () => {
    const p = policies({ fetchWaitMs: 100, maxFetches: 1 });
    const first = domain();
    const release = slowly(first.host, policy('enforce', ['mx.example.com'], 86400));
    const second = domain();
    site.answer(second.host, { body: policy('enforce', ['mx.example.com'], 86400) });
    expect((await p.requirement(first.name))?.policy).toBe('opportunistic');
    expect((await p.requirement(second.name))?.policyFailure?.detail).toBe(
      'not fetched: 1 policy fetches were under way already',
    );
    expect(site.to(second.host)).toHaveLength(0);
    release();
    await until('the first fetch done', async () =>
      (await p.requirement(first.name))?.policy === 'mta-sts' ? true : undefined,
    );
    clock.advance(61_000);
    expect((await fetched(p, second.name)).policy).toBe('mta-sts');
  });

  it('does not fetch a policy id again for five minutes after its fetch failed, but a new id at once', async () => {
    const p = policies();
    const down = domain({ id: 'first' });
    expect((await p.requirement(down.name))?.policyFailure?.detail).toBe(`${down.host} answered HTTP 404`);
    clock.advance(61_000);
    expect((await p.requirement(down.name))?.policyFailure?.detail).toBe(`${down.host} answered HTTP 404`);
    expect(site.to(down.host)).toHaveLength(1);
    // The domain publishes a new id: fetched again at once.
    dns.remove(`_mta-sts.${down.name}`, 'TXT');
    dns.add(`_mta-sts.${down.name}`, 'TXT', 'v=STSv1; id=second');
    clock.advance(61_000);
    await p.requirement(down.name);
    expect(site.to(down.host)).toHaveLength(2);
    // Five minutes after that failure, the same id is tried again.
    clock.advance(4 * 60_000);
    await p.requirement(down.name);
    expect(site.to(down.host)).toHaveLength(2);
    clock.advance(61_000);
    site.answer(down.host, { body: policy('testing', ['mx.example.com'], 86400) });
    expect(await p.requirement(down.name)).toMatchObject({ policy: 'mta-sts-testing' });
    expect(site.to(down.host)).toHaveLength(3);
  });

  it('answers a fetch failure with nothing stored as opportunistic, with the failure to report', async () => {
    const p = policies();
    const failureOf = async (d: { name: string }) =>
      (await p.requirement(d.name))?.policyFailure?.type ?? 'no failure';

    const notFound = domain();
    expect(await p.requirement(notFound.name)).toEqual({
      policy: 'opportunistic',
      requireVerified: false,
      policyDomain: notFound.name,
      policyFailure: { type: 'sts-policy-fetch-error', detail: `${notFound.host} answered HTTP 404` },
    });

    const invalid = domain();
    site.answer(invalid.host, { body: 'version: STSv1\nmode: enforce\nmax_age: 86400\n' });
    expect(await p.requirement(invalid.name)).toMatchObject({
      policy: 'opportunistic',
      policyFailure: { type: 'sts-policy-invalid', detail: 'mode enforce without mx' },
    });

    const html = domain();
    site.answer(html.host, { type: 'text/html', body: policy('enforce', ['mx.example.com'], 60) });
    expect(await failureOf(html)).toBe('sts-policy-invalid');

    const redirect = domain();
    site.answer(redirect.host, { status: 301, headers: { location: 'https://elsewhere.example/' } });
    expect((await p.requirement(redirect.name))?.policyFailure?.detail).toContain(
      'redirects are not followed',
    );

    const huge = domain();
    site.answer(huge.host, {
      body: policy('enforce', ['mx.example.com'], 60) + `x: ${'a'.repeat(70_000)}\n`,
    });
    expect(await failureOf(huge)).toBe('sts-policy-fetch-error');

    // A certificate for another name, and one no root trusts.
    const wrongName = domain({ cert: false });
    site.certificate(wrongName.host, ca.issue(['mta-sts.someone-else.example']));
    site.answer(wrongName.host, { body: policy('enforce', ['mx.example.com'], 60) });
    expect(await failureOf(wrongName)).toBe('sts-webpki-invalid');
    const selfSigned = domain({ cert: false });
    site.certificate(selfSigned.host, ca.issue([selfSigned.host], { selfSigned: true }));
    site.answer(selfSigned.host, { body: policy('enforce', ['mx.example.com'], 60) });
    expect(await failureOf(selfSigned)).toBe('sts-webpki-invalid');

    // The policy host on a loopback address, with private networks not allowed: never fetched.
    const guarded = domain();
    site.answer(guarded.host, { body: policy('enforce', ['mx.example.com'], 60) });
    expect(await policies({ allowPrivate: false }).requirement(guarded.name)).toMatchObject({
      policyFailure: {
        type: 'sts-policy-fetch-error',
        detail: `${guarded.host} resolves to ${SITE_IP}, a loopback, private or otherwise non-public address`,
      },
    });
    expect(site.to(guarded.host)).toHaveLength(0);

    // No TXT record: no policy, nothing fetched.
    expect(await p.requirement(`nothing.${kind.name}.example`)).toBeUndefined();
  });
});
