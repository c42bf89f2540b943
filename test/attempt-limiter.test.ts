// The attempt limiter on every database: windows, refusals with how long to wait, all-or-nothing takes,
// refunds, and no overshoot when many attempts race over several connections; the log-in limits built
// on it, and the client networks the per-IP limits count.
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AttemptLimiter } from '../src/accounts/attempt-limiter.js';
import { clientNetwork } from '../src/client-network.js';
import { LOGIN_WINDOW_MS, LoginLimits } from '../src/accounts/login-limits.js';
import { AttemptCountsRepo } from '../src/db/attempt-counts-repo.js';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';

/** The key as the limiter stores it (attempt-limiter.ts: a SHA-256 of the scope and the key). */
const hashOf = (scope: string, key: string) => createHash('sha256').update(`${scope}\n${key}`).digest('hex');

describe('client networks', () => {
  it('counts an IPv4 address alone and an IPv6 address by its /64', () => {
    expect(
      [
        '192.0.2.7',
        '::ffff:192.0.2.7',
        '2001:db8:1:2::1',
        '2001:DB8:1:2:ffff:ffff:ffff:ffff',
        '2001:db8:1:3::1',
        'fe80::1',
        'not an address',
      ].map(clientNetwork),
    ).toEqual([
      '192.0.2.7',
      '192.0.2.7',
      '2001:db8:1:2::/64',
      '2001:db8:1:2::/64',
      '2001:db8:1:3::/64',
      'fe80::/64',
      'not an address',
    ]);
  });
});

describe.each(databaseKinds)('attempt limiter on $name', (kind) => {
  let database: TestDatabase;
  let dbs: Db[];
  const open = async () => {
    const db = openDatabase(database.url);
    dbs.push(db);
    await migrate(db);
    return new AttemptCountsRepo(db.kysely, db.dialect);
  };

  beforeEach(async () => {
    database = await kind.create();
    dbs = [];
  });
  afterEach(async () => {
    for (const db of dbs) await db.close();
    await database.drop();
  });

  it('refuses a key after max attempts in the window, says for how long, and forgets it after', async () => {
    const limiter = new AttemptLimiter(await open(), 'test', 3, 60_000);
    for (let i = 0; i < 3; i++) expect((await limiter.take(['k'], 1000 + i)).allowed).toBe(true);
    expect(await limiter.take(['k'], 31_000)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect((await limiter.take(['other'], 31_000)).allowed).toBe(true);
    // The window started at the first attempt: it ends at 61 s, and a new one starts.
    expect((await limiter.take(['k'], 61_000)).allowed).toBe(true);
    expect((await limiter.take(['k'], 61_001)).allowed).toBe(true);
  });

  it('counts against every key or none, gives back a refund and forgets a key on reset', async () => {
    const limiter = new AttemptLimiter(await open(), 'test', 2, 60_000);
    await limiter.take(['ip', 'a'], 0);
    await limiter.take(['ip', 'b'], 0);
    // `ip` is full: `c` is not counted either.
    expect((await limiter.take(['ip', 'c'], 1)).allowed).toBe(false);
    expect((await limiter.take(['c'], 1)).allowed).toBe(true);
    expect((await limiter.take(['c'], 1)).allowed).toBe(true);
    await limiter.refund('ip', 2);
    expect((await limiter.take(['ip'], 3)).allowed).toBe(true);
    expect((await limiter.take(['ip'], 3)).allowed).toBe(false);
    await limiter.reset('ip');
    expect((await limiter.take(['ip'], 4)).allowed).toBe(true);
  });

  it('keeps scopes apart and stores only hashes of the keys', async () => {
    const repo = await open();
    await new AttemptLimiter(repo, 'login', 1, 60_000).take(['alice@example.org'], 0);
    expect((await new AttemptLimiter(repo, 'mail', 1, 60_000).take(['alice@example.org'], 0)).allowed).toBe(
      true,
    );
    const rows = await dbs[0]!.kysely.selectFrom('attempt_counts').selectAll().execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.key).toMatch(/^[0-9a-f]{64}$/);
  });

  it('takes a turn of takes in one transaction on SQLite, each in its own on PostgreSQL (batches there could deadlock)', async () => {
    const repo = await open();
    const many = vi.spyOn(repo, 'takeMany');
    const limiter = new AttemptLimiter(repo, 'test', 100, 60_000);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => limiter.take([`k${i % 3}`], 1000)),
    );
    expect(results.every((r) => r.allowed)).toBe(true);
    expect(many.mock.calls.map((c) => c[0].length).reduce((a, b) => a + b, 0)).toBe(20);
    if (kind.name === 'sqlite') expect(many.mock.calls.length).toBeLessThanOrEqual(2);
    else expect(many.mock.calls.length).toBe(20);
    // Every take counted once, a shared key as often as it was taken.
    const counts = await repo.counts(
      ['k0', 'k1', 'k2'].map((k) => hashOf('test', k)),
      1000,
    );
    expect([...counts.values()]).toEqual([7, 7, 6]);
  });

  it('never allows more than max when attempts race over several connections', async () => {
    const limiters = [await open(), await open()].map((repo) => new AttemptLimiter(repo, 'test', 10, 60_000));
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => limiters[i % 2]!.take(['ip', `address ${i}`], 1000)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    for (const r of results.filter((r) => !r.allowed)) expect(r.retryAfterSeconds).toBe(60);
  });

  describe('log-in limits', () => {
    const fail = (
      limits: LoginLimits,
      n: number,
      ip: (i: number) => string,
      email: (i: number) => string,
      device?: string,
    ) => Promise.all(Array.from({ length: n }, (_, i) => limits.take(ip(i), email(i), 1000, device)));

    it('gives one network 10 failures per address, the address 100 across networks, the network 30 across addresses', async () => {
      const limits = new LoginLimits(await open());
      const pair = await fail(
        limits,
        11,
        () => '198.51.100.1',
        () => 'alice@example.org',
      );
      expect(pair.filter((d) => d.allowed)).toHaveLength(10);
      // 9 more networks spend their 10 each: the address is at 100, for every network.
      const spread = await fail(
        limits,
        90,
        (i) => `198.51.100.${2 + (i % 9)}`,
        () => 'Alice@Example.org',
      );
      expect(spread.every((d) => d.allowed)).toBe(true);
      expect(await limits.take('203.0.113.1', 'alice@example.org', 2000)).toEqual({
        allowed: false,
        retryAfterSeconds: (LOGIN_WINDOW_MS - 1000) / 1000,
      });
      // Refused there, the network spent nothing: 30 other addresses are still open to it, not 31.
      const spray = await fail(
        limits,
        31,
        () => '203.0.113.1',
        (i) => `user${i}@example.org`,
      );
      expect(spray.filter((d) => d.allowed)).toHaveLength(30);
      // New windows start 15 minutes after the first attempt of the old ones.
      expect((await limits.take('203.0.113.1', 'alice@example.org', 2000 + LOGIN_WINDOW_MS)).allowed).toBe(
        true,
      );
    });

    it('counts a remembered browser per (device, address) alone: outside the ceilings, which it neither spends nor meets', async () => {
      const limits = new LoginLimits(await open());
      // The address's ceiling and the network's are full.
      await fail(
        limits,
        100,
        (i) => `198.51.100.${i % 10}`,
        () => 'alice@example.org',
      );
      await fail(
        limits,
        30,
        () => '203.0.113.1',
        (i) => `user${i}@example.org`,
      );
      expect((await limits.take('203.0.113.1', 'alice@example.org', 1000)).allowed).toBe(false);
      const device = 'd'.repeat(64);
      const fromDevice = await fail(
        limits,
        11,
        () => '203.0.113.1',
        () => 'alice@example.org',
        device,
      );
      expect(fromDevice.filter((d) => d.allowed)).toHaveLength(10);
      // Another browser of the owner's has its own count; a success clears the device's.
      expect((await limits.take('203.0.113.1', 'alice@example.org', 1000, 'e'.repeat(64))).allowed).toBe(
        true,
      );
      await limits.succeeded('203.0.113.1', 'alice@example.org', 1000, device);
      expect((await limits.take('203.0.113.1', 'Alice@Example.org', 1000, device)).allowed).toBe(true);
      // The browser spent nothing of the network's or the address's counts: a fresh network is still
      // refused by the address's ceiling, and no more than that.
      expect((await limits.take('192.0.2.1', 'alice@example.org', 1000)).allowed).toBe(false);
      expect((await limits.take('192.0.2.1', 'bob@example.org', 1000)).allowed).toBe(true);
    });

    it('forgets a network’s failures for the address on success, and gives its attempt back to the ceilings', async () => {
      const limits = new LoginLimits(await open());
      await fail(
        limits,
        10,
        () => '198.51.100.1',
        () => 'alice@example.org',
      );
      expect((await limits.take('198.51.100.1', 'alice@example.org', 1000)).allowed).toBe(false);
      // Another network's right password: it clears its own pair only.
      expect((await limits.take('198.51.100.2', 'alice@example.org', 1000)).allowed).toBe(true);
      await limits.succeeded('198.51.100.2', 'alice@example.org', 1000);
      expect((await limits.take('198.51.100.1', 'alice@example.org', 1000)).allowed).toBe(false);
      await limits.succeeded('198.51.100.1', 'alice@example.org', 1000);
      expect(
        (
          await fail(
            limits,
            10,
            () => '198.51.100.1',
            () => 'alice@example.org',
          )
        ).every((d) => d.allowed),
      ).toBe(true);
    });
  });
});
