// Migrating one SQLite file from several processes at once (db/sqlite/migration-lock.ts): `txmail api`
// and `txmail worker` started together on a new or upgraded file both come up, whoever migrates. And a
// migration that stops halfway leaves nothing of itself (db/sqlite/migration-transactions.ts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { migrations } from '../src/db/migrations/index.js';
import { inTransactions } from '../src/db/sqlite/migration-transactions.js';
import { runCli } from './helpers/process.js';

const ALL = Object.keys(migrations);
const dirs: string[] = [];
const open: Db[] = [];

function newFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'txmail-migration-lock-'));
  dirs.push(dir);
  return join(dir, 'txmail.db');
}

function connect(file: string): Db {
  const db = openDatabase(`sqlite:${file}`);
  open.push(db);
  return db;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

async function lockRows(db: Db): Promise<unknown[]> {
  return (await sql`select pid from txmail_migration_lock`.execute(db.kysely)).rows;
}

async function createLock(db: Db, pid: number): Promise<void> {
  await sql`create table txmail_migration_lock (
    id integer primary key check (id = 1), pid integer not null, token text not null, taken_at integer not null)`.execute(
    db.kysely,
  );
  await sql`insert into txmail_migration_lock values (1, ${pid}, 'another', 0)`.execute(db.kysely);
}

describe('migrations on one SQLite file from several connections at once', () => {
  it('are applied once, and every migrating connection succeeds', async () => {
    const file = newFile();
    const results = await Promise.all([
      migrate(connect(file)),
      migrate(connect(file)),
      migrate(connect(file)),
    ]);
    // One applied them all; the others found them applied once they had the lock.
    expect(results.map((r) => r.length).sort()).toEqual([0, 0, ALL.length]);
    const check = connect(file);
    const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(check.kysely);
    expect(applied.rows.map((r) => r.name).sort()).toEqual([...ALL].sort());
    expect(await lockRows(check)).toEqual([]);
  });

  it('wait while a live process holds the lock, and go on once it lets go', async () => {
    const file = newFile();
    const db = connect(file);
    const holder = 424242;
    await createLock(db, holder);
    const seen: (number | undefined)[] = [];
    let waitedTwice!: () => void;
    const twice = new Promise<void>((resolve) => (waitedTwice = resolve));
    let done = false;
    const migrating = migrate(db, {
      isAlive: (pid) => pid === holder,
      pollMs: 5,
      onWait: (pid) => {
        seen.push(pid);
        if (seen.length === 2) waitedTwice();
      },
    }).then((applied) => {
      done = true;
      return applied;
    });
    await twice;
    expect(done).toBe(false);
    expect(seen).toEqual([holder, holder]);
    expect(await sql`select name from sqlite_master where name = 'messages'`.execute(db.kysely)).toEqual({
      rows: [],
    });
    await sql`delete from txmail_migration_lock`.execute(db.kysely);
    expect(await migrating).toEqual(ALL);
    expect(await lockRows(db)).toEqual([]);
  });

  it('take over the lock of a process that died while migrating', async () => {
    const file = newFile();
    const db = connect(file);
    await createLock(db, await deadPid());
    const seen: unknown[] = [];
    expect(await migrate(db, { onWait: (pid) => seen.push(pid) })).toEqual(ALL);
    expect(seen).toEqual([]);
    expect(await lockRows(db)).toEqual([]);
  });

  it('`txmail migrate` run twice at once on a new file: both succeed', async () => {
    // Before the lock, the second of two stopped at "table … already exists" (3 runs out of 3).
    for (let run = 0; run < 2; run++) {
      const env = { TXMAIL_DATABASE_URL: `sqlite:${newFile()}` };
      const [a, b] = await Promise.all([runCli(['migrate'], env), runCli(['migrate'], env)]);
      expect([a.code, b.code], `${a.stderr}\n${b.stderr}`).toEqual([0, 0]);
    }
  });
});

describe('a migration on SQLite that stops halfway', () => {
  const first: Migration = {
    up: async (db) => {
      await sql`create table first_table (id integer)`.execute(db);
    },
  };
  /** Its second statement fails (as a process killed there would stop): unless `fixed`. */
  const second = (fixed: boolean): Migration => ({
    up: async (db: Kysely<unknown>) => {
      await sql`create table second_table (id integer)`.execute(db);
      await sql`insert into ${sql.raw(fixed ? 'second_table' : 'no_such_table')} values (1)`.execute(db);
    },
  });
  const migrator = (db: Db, fixed: boolean) =>
    new Migrator({
      db: db.kysely,
      provider: {
        getMigrations: async () => inTransactions({ '1-first': first, '2-second': second(fixed) }),
      },
    });

  it('leaves nothing of itself, and applies whole on the next try', async () => {
    const db = connect(newFile());
    const failed = await migrator(db, false).migrateToLatest();
    expect(failed.error).toBeDefined();
    const tables = async () =>
      (
        await sql<{
          name: string;
        }>`select name from sqlite_master where name like '%_table' order by name`.execute(db.kysely)
      ).rows.map((r) => r.name);
    // Without its own transaction, second_table stayed, and the next try stopped at "already exists".
    expect(await tables()).toEqual(['first_table']);
    const again = await migrator(db, true).migrateToLatest();
    expect(again.error).toBeUndefined();
    expect(again.results?.map((r) => [r.migrationName, r.status])).toEqual([['2-second', 'Success']]);
    expect(await tables()).toEqual(['first_table', 'second_table']);
  });
});
