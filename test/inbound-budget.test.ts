// The receiver's hourly budget per client on every database: messages and KiB counted in hourly windows,
// a refusal that counts nothing, and no overshoot when messages race over several connections (as they
// do from several inbound processes).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttemptCountsRepo } from '../src/db/attempt-counts-repo.js';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { InboundBudget } from '../src/inbound/inbound-budget.js';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';

const HOUR = 3_600_000;

describe.each(databaseKinds)('the inbound hourly budget on $name', (kind) => {
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

  it('takes messages up to the hourly count, refuses the next, and starts again after the hour', async () => {
    const budget = new InboundBudget(await open(), { messagesPerHour: 3, bytesPerHour: 0 });
    for (let i = 0; i < 3; i++) expect(await budget.take('192.0.2.1', 100, 1000 + i)).toBeUndefined();
    expect(await budget.take('192.0.2.1', 100, 2000)).toBe('hourly_messages');
    expect(await budget.room('192.0.2.1', undefined, 2000)).toEqual({
      ok: false,
      limit: 'hourly_messages',
      spent: true,
    });
    expect(await budget.take('192.0.2.2', 100, 2000)).toBeUndefined();
    // The window began with the first message: it ends an hour later.
    expect(await budget.room('192.0.2.1', undefined, 1000 + HOUR)).toEqual({ ok: true });
    expect(await budget.take('192.0.2.1', 100, 1000 + HOUR)).toBeUndefined();
  });

  it('counts bytes in whole KiB, refuses what would pass them and counts nothing of a refusal', async () => {
    const budget = new InboundBudget(await open(), { messagesPerHour: 100, bytesPerHour: 10 * 1024 });
    expect(await budget.take('c', 6 * 1024, 0)).toBeUndefined();
    // A declared size that does not fit: 452 at MAIL FROM, not the end of the hour.
    expect(await budget.room('c', 5 * 1024, 1)).toEqual({ ok: false, limit: 'hourly_bytes', spent: false });
    expect(await budget.room('c', 4 * 1024, 1)).toEqual({ ok: true });
    expect(await budget.take('c', 5 * 1024, 1)).toBe('hourly_bytes');
    // 1 byte counts 1 KiB; the refused message above counted neither its bytes nor itself.
    for (let i = 0; i < 4; i++) expect(await budget.take('c', 1, 2)).toBeUndefined();
    expect(await budget.room('c', undefined, 3)).toEqual({ ok: false, limit: 'hourly_bytes', spent: true });
    expect(await budget.take('c', 1, 3)).toBe('hourly_bytes');
  });

  it('never lets messages racing over several connections pass the budget', async () => {
    const repos = [await open(), await open(), await open()];
    const budgets = repos.map((r) => new InboundBudget(r, { messagesPerHour: 7, bytesPerHour: 40 * 1024 }));
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => budgets[i % budgets.length]!.take('racer', 4 * 1024, 10)),
    );
    expect(results.filter((r) => r === undefined)).toHaveLength(7);
    const bytes = new InboundBudget(repos[0]!, { messagesPerHour: 0, bytesPerHour: 40 * 1024 });
    const byBytes = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        new InboundBudget(repos[i % repos.length]!, { messagesPerHour: 0, bytesPerHour: 40 * 1024 }).take(
          'heavy',
          3 * 1024,
          10,
        ),
      ),
    );
    // 40 KiB hold 13 messages of 3 KiB.
    expect(byBytes.filter((r) => r === undefined)).toHaveLength(13);
    expect(await bytes.room('heavy', 2 * 1024, 10)).toEqual({
      ok: false,
      limit: 'hourly_bytes',
      spent: false,
    });
  });

  it('takes everything when both limits are 0', async () => {
    const budget = new InboundBudget(await open(), { messagesPerHour: 0, bytesPerHour: 0 });
    for (let i = 0; i < 5; i++) expect(await budget.take('c', 50 * 1024 * 1024, 0)).toBeUndefined();
    expect(await budget.room('c', 50 * 1024 * 1024, 0)).toEqual({ ok: true });
  });
});
