// Migrating one SQLite file from several processes at once (db/sqlite/migration-lock.ts): `txmail api`
// and `txmail worker` started together on a new or upgraded file both come up, whoever migrates. And a
// migration that stops halfway leaves nothing of itself (db/sqlite/migration-transactions.ts).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { migrations } from '../src/db/migrations/index.js';
import { migrationLockPath } from '../src/db/sqlite/migration-lock.js';
import { inTransactions, OWN_TRANSACTION } from '../src/db/sqlite/migration-transactions.js';
import { runCli } from './helpers/process.js';

const ALL = Object.keys(migrations);
const require = createRequire(import.meta.url);
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

/** Holds the migration lock of `file` from another connection, as another process would. */
function holdLock(file: string): SQLite.Database {
  const lock = new SQLite(migrationLockPath(file));
  lock.exec('begin exclusive');
  return lock;
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
    // Let go: another connection takes it at once.
    holdLock(file).close();
  });

  it('wait while another holds the lock, and go on once it lets go', async () => {
    const file = newFile();
    const db = connect(file);
    const held = holdLock(file);
    let waits = 0;
    let waitedTwice!: () => void;
    const twice = new Promise<void>((resolve) => (waitedTwice = resolve));
    let done = false;
    const migrating = migrate(db, {
      pollMs: 5,
      onWait: () => {
        if (++waits === 2) waitedTwice();
      },
    }).then((applied) => {
      done = true;
      return applied;
    });
    await twice;
    expect(done).toBe(false);
    expect(await sql`select name from sqlite_master where name = 'messages'`.execute(db.kysely)).toEqual({
      rows: [],
    });
    held.close();
    expect(await migrating).toEqual(ALL);
  });

  it('take the lock at once from a process killed while holding it', async () => {
    const file = newFile();
    // A process that takes the lock, says so, and waits to be killed.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const SQLite = require(${JSON.stringify(require.resolve('better-sqlite3'))});
         new SQLite(${JSON.stringify(migrationLockPath(file))}).exec('begin exclusive');
         console.log('held');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((resolve) => holder.stdout.once('data', resolve));
    const exited = new Promise((resolve) => holder.on('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    let waits = 0;
    expect(await migrate(connect(file), { onWait: () => waits++ })).toEqual(ALL);
    expect(waits).toBe(0);
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

  it('names only real migrations among those that open their own transaction', () => {
    expect([...OWN_TRANSACTION].filter((name) => !(name in migrations))).toEqual([]);
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
