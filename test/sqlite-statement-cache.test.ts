// The prepared statements Kysely's SQLite connection keeps (db/sqlite/statement-cache.ts), on a real
// SQLite database: a text is prepared once and run with each query's parameters; a statement still
// being iterated is not handed out twice; the least recently used goes past the limit; and a statement
// kept across a change of the schema sees the new schema (SQLite prepares it again by itself).
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from '../src/db/sqlite/statement-cache.js';

describe('the SQLite statement cache', () => {
  let database: SQLite.Database;
  afterEach(() => database?.close());

  /** A database with a table t(x), and how many times its connection prepared a statement. */
  const open = () => {
    database = new SQLite(':memory:');
    database.exec('create table t (x integer)');
    let prepared = 0;
    const prepare = database.prepare.bind(database);
    database.prepare = ((text: string) => {
      prepared++;
      return prepare(text);
    }) as typeof database.prepare;
    return { database, prepared: () => prepared };
  };

  it('prepares a text once and runs it with each query’s parameters, through Kysely', async () => {
    const { database, prepared } = open();
    const db = new Kysely<{ t: { x: number } }>({
      dialect: new SqliteDialect({ database: withStatementCache(database) }),
    });
    for (let x = 1; x <= 5; x++) await db.insertInto('t').values({ x }).execute();
    const over = (n: number) => db.selectFrom('t').select('x').where('x', '>', n).execute();
    expect((await over(3)).map((r) => r.x)).toEqual([4, 5]);
    expect((await over(1)).map((r) => r.x)).toEqual([2, 3, 4, 5]);
    // One insert and one select, however many times each ran.
    expect(prepared()).toBe(2);
    // The schema changes under a kept statement: SQLite prepares it again, and it sees the new column.
    await sql`alter table t add column y integer default 7`.execute(db);
    const all = () => db.selectFrom('t').selectAll().where('x', '=', 5).execute();
    expect(await all()).toEqual([{ x: 5, y: 7 }]);
    await sql`alter table t add column z text default 'z'`.execute(db);
    expect(await all()).toEqual([{ x: 5, y: 7, z: 'z' }]);
  });

  it('reuses a statement that failed, and runs Kysely transactions on kept statements', async () => {
    const { database, prepared } = open();
    database.exec('create unique index t_x on t (x)');
    const db = new Kysely<{ t: { x: number } }>({
      dialect: new SqliteDialect({ database: withStatementCache(database) }),
    });
    const insert = (x: number) => db.insertInto('t').values({ x }).execute();
    await insert(1);
    await expect(insert(1)).rejects.toThrow(/UNIQUE constraint failed/);
    await insert(2);
    // A transaction that fails rolls back, one that succeeds commits, with the same kept statements.
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ x: 3 }).execute();
        await trx.insertInto('t').values({ x: 1 }).execute();
      }),
    ).rejects.toThrow(/UNIQUE constraint failed/);
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ x: 4 }).execute();
    });
    const xs = await db.selectFrom('t').select('x').orderBy('x').execute();
    expect(xs.map((r) => r.x)).toEqual([1, 2, 4]);
    // The insert, begin, commit, rollback and the select: each prepared once.
    expect(prepared()).toBe(5);
  });

  it('gives a query a statement of its own while the kept one is still being iterated', () => {
    const { database } = open();
    database.exec('insert into t values (1), (2), (3)');
    const cache = withStatementCache(database);
    const text = 'select x from t order by x';
    const first = cache.prepare(text);
    const rows = first.iterate([]);
    expect(rows.next().value).toEqual({ x: 1 });
    const second = cache.prepare(text);
    expect(second).not.toBe(first);
    expect(second.all([])).toEqual([{ x: 1 }, { x: 2 }, { x: 3 }]);
    expect([...rows]).toEqual([{ x: 2 }, { x: 3 }]);
    // Done iterating, the kept statement is handed out again.
    expect(cache.prepare(text)).toBe(first);
  });

  it('lets the least recently used statement go past its size', () => {
    const { database, prepared } = open();
    const cache = withStatementCache(database, 2);
    const [a, b, c] = ['select 1', 'select 2', 'select 3'];
    const kept = cache.prepare(a!);
    cache.prepare(b!);
    expect(cache.prepare(a!)).toBe(kept); // a is now the most recent: b goes first
    cache.prepare(c!);
    expect(prepared()).toBe(3);
    expect(cache.prepare(a!)).toBe(kept);
    cache.prepare(b!);
    expect(prepared()).toBe(4);
  });
});
