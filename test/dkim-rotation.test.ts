// DKIM key rotation and the Ed25519 key through the domains API, on both databases, with a real DNS
// server: the pending key's record is answered, the old key signs until the record is found by a
// check (scheduled or manual), then the new key signs and the old one is retired.
import { promises as dnsPromises } from 'node:dns';
import type { Kysely } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { migratorFor, openDatabase } from '../src/db/database.js';
import { buildMessage } from '../src/delivery/build-message.js';
import { RETIRED_RECORD_KEEP_MS } from '../src/dkim/rotation.js';
import { DomainChecker } from '../src/domains/domain-checker.js';
import { PENDING_KEY_CHECK_MS } from '../src/domains/domains.js';
import { databaseKinds } from './helpers/databases.js';
import { mailauthVerify, type KeyRecords } from './helpers/dkim-verifiers.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { domainsApi, publish, recordOf, serviceDnsEnv, type DomainJson } from './helpers/domains.js';
import { createTenant, startTestEnv, type Tenant, type TestEnv } from './helpers/services.js';

interface DkimKeyJson {
  selector: string;
  algorithm: 'rsa-sha256' | 'ed25519-sha256';
  status: 'active' | 'pending' | 'retired';
  type: 'TXT';
  name: string;
  value: string;
  created_at: string;
  activated_at: string | null;
  retired_at: string | null;
  removable_after: string | null;
  record_status: string | null;
  record_problem: string | null;
}

type Detail = DomainJson & { dkim_keys: DkimKeyJson[]; dkim_ed25519: boolean };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe.each(databaseKinds)('DKIM rotation on $name', (kind) => {
  let env: TestEnv;
  let api: ReturnType<typeof domainsApi>;
  const dns = new TestDnsServer();
  const clock = new ManualClock();

  beforeAll(async () => {
    await dns.start();
    env = await startTestEnv(kind, { clock, env: serviceDnsEnv(dns) });
    api = domainsApi(env.app);
  });
  afterAll(async () => {
    await env.close();
    await dns.stop();
  });

  const ok = async (t: Tenant, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) => {
    const res = await api(t, method, url, payload);
    expect(res.statusCode, res.body).toBe(method === 'POST' && url === '/api/domains' ? 201 : 200);
    return res.json() as Detail;
  };
  /** A tenant with a verified domain, its records published. */
  const verifiedDomain = async (name: string, body: Record<string, unknown> = {}) => {
    const t = await createTenant(env.services, { plan: 'scale' });
    const d = await ok(t, 'POST', '/api/domains', { name, ...body });
    publish(dns, d);
    expect((await ok(t, 'POST', `/api/domains/${d.id}/verify`)).status).toBe('verified');
    return { t, d };
  };
  const checker = () =>
    new DomainChecker(env.services.domains, env.services.repos.domains, clock, pino({ level: 'silent' }), {
      pollMs: 10 * MINUTE,
      batch: 10,
      leaseMs: 5 * MINUTE,
    });
  /** What the worker builds for mail from `domain` now: composed and signed with its signing keys. */
  const built = async (t: Tenant, domain: string) => {
    const key = await env.services.dkim.signingKey(domain, t.accountId);
    return buildMessage({
      message: {
        id: '0190a0b0-0000-7000-8000-000000000001',
        fromName: 'Acme',
        fromEmail: `noreply@${domain}`,
        toName: 'Jane',
        toEmail: 'jane@recipient.example',
        subject: 'Your code',
        html: '<p>1234</p>',
        createdAt: clock.now(),
      },
      hostname: 'mta.txmail.test',
      key: key!,
    });
  };
  /** The records the test DNS server answers for the message's selectors, as a verifier reads them. */
  const published = async (raw: Buffer): Promise<KeyRecords> => {
    const resolver = new dnsPromises.Resolver();
    resolver.setServers([dns.address]);
    const out: KeyRecords = {};
    for (const m of raw.toString('latin1').matchAll(/ s=([^;]+);/g)) {
      const name = `${m[1]}._domainkey.${/ d=([^;]+);/.exec(raw.toString('latin1'))![1]}`;
      out[name] = (await resolver.resolveTxt(name).catch(() => [['']]))[0]!.join('');
    }
    return out;
  };
  const verdicts = async (raw: Buffer) =>
    (await mailauthVerify(raw, await published(raw))).map((v) => `${v.algorithm} ${v.selector} ${v.result}`);

  it('rotates: the pending record is answered, the old key signs until a scheduled check finds it, then the new one', async () => {
    const { t, d } = await verifiedDomain('rotate.example');
    const oldSelector = d.dkim_keys[0]!.selector;
    expect(d.dkim_keys).toEqual([expect.objectContaining({ status: 'active', algorithm: 'rsa-sha256' })]);

    const rotated = await ok(t, 'POST', `/api/domains/${d.id}/dkim/rotate`);
    const pending = rotated.dkim_keys.find((k) => k.status === 'pending')!;
    expect(pending).toMatchObject({ algorithm: 'rsa-sha256', type: 'TXT', record_status: null });
    expect(pending.selector).not.toBe(oldSelector);
    expect(pending.name).toBe(`${pending.selector}._domainkey.rotate.example`);
    expect(pending.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
    // The verified record is still the old key's.
    expect(recordOf(rotated, 'dkim').name).toBe(`${oldSelector}._domainkey.rotate.example`);
    expect(rotated.status).toBe('verified');

    // Again while pending: the same key.
    const again = await ok(t, 'POST', `/api/domains/${d.id}/dkim/rotate`);
    expect(again.dkim_keys.filter((k) => k.status === 'pending').map((k) => k.selector)).toEqual([
      pending.selector,
    ]);

    // The old key signs, and verifies.
    let raw = await built(t, 'rotate.example');
    expect(await verdicts(raw)).toEqual([`rsa-sha256 ${oldSelector} pass`]);

    // A scheduled check before the record is published: nothing changes, the next check comes sooner.
    const c = checker();
    clock.advance(HOUR);
    expect(await c.runOnce()).toBe(1);
    let now = await ok(t, 'GET', `/api/domains/${d.id}`);
    expect(now.dkim_keys.find((k) => k.selector === pending.selector)).toMatchObject({
      status: 'pending',
      record_status: 'missing',
      record_checked_at: new Date(clock.now()).toISOString(),
    } as Partial<DkimKeyJson>);
    expect(now.next_check_at).toBe(new Date(clock.now() + PENDING_KEY_CHECK_MS).toISOString());
    raw = await built(t, 'rotate.example');
    expect(await verdicts(raw)).toEqual([`rsa-sha256 ${oldSelector} pass`]);

    // Published: the next scheduled check lets the new key take over.
    dns.add(pending.name, 'TXT', pending.value);
    clock.advance(PENDING_KEY_CHECK_MS);
    expect(await c.runOnce()).toBe(1);
    now = await ok(t, 'GET', `/api/domains/${d.id}`);
    expect(now.status).toBe('verified');
    expect(recordOf(now, 'dkim')).toMatchObject({
      name: pending.name,
      value: pending.value,
      status: 'found',
    });
    const retired = now.dkim_keys.find((k) => k.selector === oldSelector)!;
    expect(retired).toMatchObject({ status: 'retired', retired_at: new Date(clock.now()).toISOString() });
    expect(retired.removable_after).toBe(new Date(clock.now() + RETIRED_RECORD_KEEP_MS).toISOString());
    expect(now.dkim_keys.find((k) => k.selector === pending.selector)).toMatchObject({
      status: 'active',
      activated_at: new Date(clock.now()).toISOString(),
    });
    expect(now.next_check_at).toBe(new Date(clock.now() + HOUR).toISOString());
    raw = await built(t, 'rotate.example');
    expect(await verdicts(raw)).toEqual([`rsa-sha256 ${pending.selector} pass`]);

    // A next rotation starts from the new key.
    const next = await ok(t, 'POST', `/api/domains/${d.id}/dkim/rotate`);
    expect(next.dkim_keys.map((k) => k.status)).toEqual(['active', 'pending', 'retired']);
  });

  it('makes one pending key of two rotations at once', async () => {
    const { t, d } = await verifiedDomain('race.example');
    const both = await Promise.all([
      api(t, 'POST', `/api/domains/${d.id}/dkim/rotate`),
      api(t, 'POST', `/api/domains/${d.id}/dkim/rotate`),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    const keys = await env.dkimKeys('race.example', t.accountId);
    expect(keys.filter((k) => k.status === 'pending')).toHaveLength(1);
  });

  it('signs with Ed25519 beside RSA once its record is found, rotates it too, and stops when turned off', async () => {
    const { t, d } = await verifiedDomain('ed.example');
    expect(d.dkim_ed25519).toBe(false);
    const on = await ok(t, 'PATCH', `/api/domains/${d.id}`, { dkim_ed25519: true });
    expect(on.dkim_ed25519).toBe(true);
    const ed = on.dkim_keys.find((k) => k.algorithm === 'ed25519-sha256')!;
    expect(ed.status).toBe('pending');
    // RFC 8463 §4.2: the raw 32-byte key.
    expect(ed.value).toMatch(/^v=DKIM1; k=ed25519; p=[A-Za-z0-9+/]{43}=$/);
    expect(ed.name).toBe(`${ed.selector}._domainkey.ed.example`);
    // Turning it on twice makes no second key.
    expect((await ok(t, 'PATCH', `/api/domains/${d.id}`, { dkim_ed25519: true })).dkim_keys).toHaveLength(2);

    // Not published yet: RSA alone signs (receivers would see a failing Ed25519 signature).
    expect(await verdicts(await built(t, 'ed.example'))).toEqual([
      `rsa-sha256 ${d.dkim_keys[0]!.selector} pass`,
    ]);
    const checked = await ok(t, 'POST', `/api/domains/${d.id}/verify`);
    expect(checked.dkim_keys.find((k) => k.selector === ed.selector)!.record_status).toBe('missing');

    dns.add(ed.name, 'TXT', ed.value);
    const found = await ok(t, 'POST', `/api/domains/${d.id}/verify`);
    expect(found.dkim_keys.find((k) => k.selector === ed.selector)!.status).toBe('active');
    expect(await verdicts(await built(t, 'ed.example'))).toEqual([
      `rsa-sha256 ${d.dkim_keys[0]!.selector} pass`,
      `ed25519-sha256 ${ed.selector} pass`,
    ]);

    // A rotation makes a pending key of each algorithm.
    const rotated = await ok(t, 'POST', `/api/domains/${d.id}/dkim/rotate`);
    expect(
      rotated.dkim_keys
        .filter((k) => k.status === 'pending')
        .map((k) => k.algorithm)
        .sort(),
    ).toEqual(['ed25519-sha256', 'rsa-sha256']);

    // Off: every Ed25519 key retired at once, pending included; RSA alone signs.
    const off = await ok(t, 'PATCH', `/api/domains/${d.id}`, { dkim_ed25519: false });
    expect(off.dkim_ed25519).toBe(false);
    expect(off.dkim_keys.filter((k) => k.algorithm === 'ed25519-sha256').map((k) => k.status)).toEqual([
      'retired',
      'retired',
    ]);
    expect(await verdicts(await built(t, 'ed.example'))).toEqual([
      `rsa-sha256 ${d.dkim_keys[0]!.selector} pass`,
    ]);
  });

  it('adds a domain with an Ed25519 key when asked, and refuses what is no setting', async () => {
    const t = await createTenant(env.services, { plan: 'scale' });
    const d = await ok(t, 'POST', '/api/domains', { name: 'ed-new.example', dkim_ed25519: true });
    expect(d.dkim_ed25519).toBe(true);
    expect(d.dkim_keys.map((k) => `${k.algorithm} ${k.status}`)).toEqual([
      'rsa-sha256 active',
      'ed25519-sha256 pending',
    ]);
    for (const [body, expected] of [
      [{ dkim_ed25519: 'yes' }, /^validation_error: "dkim_ed25519" must be true or false$/],
      [{ dkim_ed25519: 1 }, /^validation_error: "dkim_ed25519" must be true or false$/],
      [{ dkim_ed25519: null }, /^validation_error: "dkim_ed25519" must be true or false$/],
      // Neither value changes when one of them is wrong.
      [{ dkim_ed25519: false, expire_after: 5 }, /^validation_error: "expire_after" must be between/],
    ] as const) {
      const res = await api(t, 'PATCH', `/api/domains/${d.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatch(expected);
    }
    expect((await ok(t, 'GET', `/api/domains/${d.id}`)).dkim_ed25519).toBe(true);
    const res = await api(t, 'POST', '/api/domains', { name: 'ed-bad.example', dkim_ed25519: 'yes' });
    expect(res.statusCode).toBe(400);
  });

  it('brings the next check forward when keys are added: a verified domain, a failed one, an Ed25519 key', async () => {
    const nextCheck = async (t: Tenant, id: string) =>
      (await ok(t, 'GET', `/api/domains/${id}`)).next_check_at;
    const soon = () => new Date(clock.now() + PENDING_KEY_CHECK_MS).toISOString();

    // Verified: checked hourly; a rotation brings the check within PENDING_KEY_CHECK_MS.
    const verified = await verifiedDomain('soon.example');
    expect(await nextCheck(verified.t, verified.d.id)).toBe(new Date(clock.now() + HOUR).toISOString());
    clock.advance(MINUTE);
    await ok(verified.t, 'POST', `/api/domains/${verified.d.id}/dkim/rotate`);
    expect(await nextCheck(verified.t, verified.d.id)).toBe(soon());
    // A check already sooner is kept.
    clock.advance(MINUTE);
    await ok(verified.t, 'PATCH', `/api/domains/${verified.d.id}`, { dkim_ed25519: true });
    expect(await nextCheck(verified.t, verified.d.id)).toBe(
      new Date(clock.now() - MINUTE + PENDING_KEY_CHECK_MS).toISOString(),
    );

    // Turning Ed25519 on brings it forward too.
    const ed = await verifiedDomain('soon-ed.example');
    await ok(ed.t, 'PATCH', `/api/domains/${ed.d.id}`, { dkim_ed25519: true });
    expect(await nextCheck(ed.t, ed.d.id)).toBe(soon());

    // Failed: never checked again on its own; a rotation has its pending key looked for.
    const failed = await verifiedDomain('soon-failed.example');
    await env.updateDomain(failed.t.accountId, 'soon-failed.example', {
      status: 'failed',
      next_check_at: null,
    });
    const rotated = await ok(failed.t, 'POST', `/api/domains/${failed.d.id}/dkim/rotate`);
    expect(await nextCheck(failed.t, failed.d.id)).toBe(soon());
    const pending = rotated.dkim_keys.find((k) => k.status === 'pending')!;
    dns.add(pending.name, 'TXT', pending.value);
    clock.advance(PENDING_KEY_CHECK_MS);
    await checker().runOnce();
    const after = await ok(failed.t, 'GET', `/api/domains/${failed.d.id}`);
    expect(after.dkim_keys.find((k) => k.selector === pending.selector)!.status).toBe('active');
  });

  it("refuses to rotate another account's domain", async () => {
    const { d } = await verifiedDomain('mine.example');
    const other = await createTenant(env.services);
    const res = await api(other, 'POST', `/api/domains/${d.id}/dkim/rotate`);
    expect(res.statusCode).toBe(404);
    expect(res.body).toMatch(/^not_found: /);
    expect((await api(other, 'POST', '/api/domains/not-a-uuid/dkim/rotate')).statusCode).toBe(404);
  });
});

describe.each(databaseKinds)('migration 025 on $name', (kind) => {
  it('keeps the newest existing key of each domain and owner active and retires the older ones, and allows one pending key per domain, owner and algorithm', async () => {
    const database = await kind.create();
    const db = openDatabase(database.url);
    try {
      const migrator = await migratorFor(db);
      expect((await migrator.migrateTo('022-blocklists')).error).toBeUndefined();
      const k = db.kysely as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const key = (
        id: string,
        selector: string,
        createdAt = 1_700_000_000_000,
        domain = 'test.txmail.example',
      ) => ({
        id,
        account_id: null,
        domain,
        selector,
        private_key: 'v1:sealed',
        public_key: 'AAAA',
        created_at: createdAt,
      });
      // Before rotation the newest key of a domain signed (by created_at, then id); the older ones
      // only stayed published.
      await k
        .insertInto('dkim_keys')
        .values([
          key('k1', 'txm202301'),
          key('k0a', 'txm202201', 1_600_000_000_000),
          key('k0b', 'txm202206', 1_650_000_000_000),
          key('t1', 'txm202301', 1_700_000_000_000, 'tie.example'),
          key('t2', 'txm202301x', 1_700_000_000_000, 'tie.example'),
        ])
        .execute();
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const rows = await db.kysely.selectFrom('dkim_keys').selectAll().orderBy('id').execute();
      const row = (id: string) => rows.find((r) => r.id === id);
      expect(row('k1')).toMatchObject({
        algorithm: 'rsa-sha256',
        status: 'active',
        activated_at: 1_700_000_000_000,
        retired_at: null,
        record_status: null,
      });
      // Retired when the next key took over (its created_at).
      expect(row('k0a')).toMatchObject({ status: 'retired', retired_at: 1_650_000_000_000 });
      expect(row('k0b')).toMatchObject({ status: 'retired', retired_at: 1_700_000_000_000 });
      expect(row('t1')).toMatchObject({ status: 'retired', retired_at: 1_700_000_000_000 });
      expect(row('t2')).toMatchObject({ status: 'active', retired_at: null });
      // The service's keys have no account: still one pending key per algorithm (PostgreSQL too, where
      // nulls are distinct).
      await k
        .insertInto('dkim_keys')
        .values({ ...key('k2', 'txm202302'), status: 'pending' })
        .execute();
      await expect(
        k
          .insertInto('dkim_keys')
          .values({ ...key('k3', 'txm202303'), status: 'pending' })
          .execute(),
      ).rejects.toThrow();
      await k
        .insertInto('dkim_keys')
        .values({ ...key('k4', 'txm202303e'), status: 'pending', algorithm: 'ed25519-sha256' })
        .execute();
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
