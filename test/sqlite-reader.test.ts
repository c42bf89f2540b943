// The SQLite reader (db/sqlite/reader.ts): the log's reads on threads of their own, off the event loop.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { newId } from '../src/ids.js';
import { loopGaps } from '../bench/lib/loop-gaps.mjs';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';

const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;

/** The longest the event loop waited while `work` ran, in ms. */
const longestStall = async (work: () => Promise<unknown>) => (await loopGaps(work)).longestMs;

/** A read that keeps SQLite busy for a while: counting a few million rows it makes up. */
const heavy = sql<{
  n: number;
}>`with recursive c(x) as (select 1 union all select x + 1 from c where x < 1000000)
  select count(*) as n from c`;

describe('the SQLite reader', () => {
  let database: TestDatabase;
  let db: Db;

  beforeEach(async () => {
    database = await sqlite.create();
    db = openDatabase(database.url);
    await migrate(db);
  });
  afterEach(async () => {
    await db.close();
    await database.drop();
  });

  const addAccount = (id: string) =>
    db.kysely
      .insertInto('accounts')
      .values({ id, email: `${id}@example.com`, plan: 'free', state: 'production', created_at: 1 })
      .execute();
  const accountIds = async () =>
    (await db.reads.selectFrom('accounts').select('id').orderBy('id').execute()).map((r) => r.id);

  it('is a connection of its own, not the event loop’s', () => {
    expect(db.reads).not.toBe(db.kysely);
  });

  it('reads every commit made before the read, on any connection', async () => {
    const a = newId();
    await addAccount(a);
    expect(await accountIds()).toEqual([a]);
    const b = newId();
    await addAccount(b);
    expect(await accountIds()).toEqual([a, b].sort());
  });

  it('runs a long read without holding the event loop, where the event loop’s connection holds it', async () => {
    // The same read on the event loop's connection is the baseline, measured here.
    const onLoop = await longestStall(() => heavy.execute(db.kysely));
    // The least of three: on a loaded machine the process itself may be kept off a core for a while,
    // which stalls the loop whatever it runs (seen once in CI beside other work: 484 ms against 1.4 s).
    const stalls: number[] = [];
    for (let i = 0; i < 3; i++)
      stalls.push(
        await longestStall(async () => {
          expect((await heavy.execute(db.reads)).rows[0]!.n).toBe(1_000_000);
        }),
      );
    const onThread = Math.min(...stalls);
    expect(onLoop).toBeGreaterThan(40);
    expect(onThread).toBeLessThan(onLoop / 4);
  });

  it('runs reads side by side on its threads, and queues those past them', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => heavy.execute(db.reads)));
    expect(results.map((r) => r.rows[0]!.n)).toEqual(Array(5).fill(1_000_000));
  });

  it('settles the answers that arrive together one a turn of the event loop, in order', async () => {
    await addAccount(newId());
    // The turns of the event loop, counted.
    let turn = 0;
    let counting = true;
    const tick = () => {
      turn++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const settledIn: number[] = [];
    const reads = Array.from({ length: 8 }, (_, i) =>
      db.reads
        .selectFrom('accounts')
        .select('id')
        .execute()
        .then(() => settledIn.push(i) && turn),
    );
    // The event loop busy while the threads answer: every answer is waiting when it looks.
    const until = Date.now() + 200;
    while (Date.now() < until);
    const turns = await Promise.all(reads);
    counting = false;
    expect(settledIn).toHaveLength(8);
    // At most two in the first turn (one as the messages are taken, one in that turn's check phase),
    // then one a turn.
    const perTurn = new Map<number, number>();
    for (const t of turns) perTurn.set(t, (perTurn.get(t) ?? 0) + 1);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(2);
    expect(perTurn.size).toBeGreaterThanOrEqual(4);
  });

  it('reads one snapshot in a transaction, and the latest state after it', async () => {
    const a = newId();
    await addAccount(a);
    const b = newId();
    const inside = await db.reads.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('accounts').select('id').execute();
      await addAccount(b);
      const after = await trx.selectFrom('accounts').select('id').execute();
      return [before.length, after.length];
    });
    expect(inside).toEqual([1, 1]);
    expect(await accountIds()).toEqual([a, b].sort());
  });

  it('refuses to write, whatever the statement', async () => {
    await expect(
      db.reads
        .insertInto('accounts')
        .values({ id: newId(), email: 'x@example.com', plan: 'free', state: 'production', created_at: 1 })
        .execute(),
    ).rejects.toThrow(/readonly/);
    await expect(sql`delete from accounts`.execute(db.reads)).rejects.toThrow(/readonly/);
    expect(await accountIds()).toEqual([]);
  });

  it('answers a bad statement with SQLite’s error and goes on reading', async () => {
    await expect(sql`select * from no_such_table`.execute(db.reads)).rejects.toMatchObject({
      name: 'SqliteReadError',
      code: 'SQLITE_ERROR',
      message: expect.stringContaining('no_such_table'),
    });
    expect(await accountIds()).toEqual([]);
  });

  it('fails a transaction cut by the close with the close, not with its rollback', async () => {
    await accountIds();
    // The transaction has begun on the thread once its callback runs: the close then cuts it.
    let begun!: () => void;
    const inside = new Promise<void>((resolve) => (begun = resolve));
    const inTransaction = db.reads
      .transaction()
      .execute((trx) => {
        begun();
        return heavy.execute(trx);
      })
      .then(
        () => 'read',
        (err: Error) => err.message,
      );
    await inside;
    await db.reads.destroy();
    expect(await inTransaction).toBe('the SQLite reader is closed');
  });

  it('fails the reads in flight, and those after, when closed', async () => {
    await accountIds();
    const inFlight = heavy.execute(db.reads).then(
      () => 'read',
      (err: Error) => err.message,
    );
    // On its thread by now: the thread runs it while the event loop goes on.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await db.reads.destroy();
    expect(await inFlight).toBe('the SQLite reader is closed');
    await expect(accountIds()).rejects.toThrow(/closed|destroyed/);
  });
});
