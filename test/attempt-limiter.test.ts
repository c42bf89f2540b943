// The attempt limiter on every database: windows, refusals with how long to wait, all-or-nothing takes,
// refunds, and no overshoot when many attempts race over several connections.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttemptLimiter } from '../src/accounts/attempt-limiter.js';
import { AttemptCountsRepo } from '../src/db/attempt-counts-repo.js';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';

describe.each(databaseKinds)('attempt limiter on $name', (kind) => {
  let database: TestDatabase;
  let dbs: Db[];
  const open = async () => {
    const db = openDatabase(database.url);
    dbs.push(db);
    await migrate(db);
    return new AttemptCountsRepo(db.kysely);
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

  it('never allows more than max when attempts race over several connections', async () => {
    const limiters = [await open(), await open()].map((repo) => new AttemptLimiter(repo, 'test', 10, 60_000));
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => limiters[i % 2]!.take(['ip', `address ${i}`], 1000)),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    for (const r of results.filter((r) => !r.allowed)) expect(r.retryAfterSeconds).toBe(60);
  });
});
