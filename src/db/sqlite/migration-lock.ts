// Migrations on SQLite run under a lock of txmail's own (ARCHITECTURE.md, "Durability", Migrations).
// Kysely takes one on PostgreSQL; on SQLite it takes none, since it assumes one connection. But `txmail
// api` and `txmail worker` may share one file, and a service manager starts them together after an
// upgrade: both then applied the same migrations at once, and the second stopped at "table … already
// exists".
// The lock is one row, taken in an IMMEDIATE transaction (so two takers cannot both see it free). Every
// process on a SQLite file runs on the same host, so a holder that died (killed mid-migration) is told
// by its pid, and its lock is taken over; no lease to outlast the longest migration.
import { randomUUID } from 'node:crypto';
import type SQLite from 'better-sqlite3';

export interface MigrationLockOptions {
  /** This process; tests pass another to play a second one. */
  pid?: number;
  /** Whether a process is alive; tests pass their own. */
  isAlive?: (pid: number) => boolean;
  /** Between two tries while another process holds the lock. */
  pollMs?: number;
  /**
   * Told each time a try found the lock held, with the holder's pid (undefined: the database was busy
   * with another connection's write for longer than its busy timeout).
   */
  onWait?: (holderPid: number | undefined) => void;
}

interface Holder {
  pid: number;
  token: string;
}

/** Who kept the lock from a try. */
interface Held {
  pid: number | undefined;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, and belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `migrate` while holding the lock, waiting as long as a live process holds it. `exclusive` runs a
 * function on the raw connection while nobody else uses it (Kysely's lock on its one connection).
 */
export async function withSqliteMigrationLock<T>(
  exclusive: <R>(f: (sqlite: SQLite.Database) => R) => Promise<R>,
  migrate: () => Promise<T>,
  options: MigrationLockOptions = {},
): Promise<T> {
  const { pid = process.pid, isAlive = processAlive, pollMs = 100, onWait } = options;
  const token = randomUUID();
  for (;;) {
    const held = await exclusive((sqlite) => tryTake(sqlite, { pid, token }, isAlive));
    if (held === undefined) break;
    onWait?.(held.pid);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  try {
    return await migrate();
  } finally {
    await exclusive((sqlite) =>
      sqlite.prepare('delete from txmail_migration_lock where id = 1 and token = ?').run(token),
    );
  }
}

/** Takes the lock (undefined), or answers who holds it. */
function tryTake(sqlite: SQLite.Database, me: Holder, isAlive: (pid: number) => boolean): Held | undefined {
  // Made here, not by a migration: it must exist before the first one runs. One statement, so two
  // processes creating it at once cannot conflict.
  sqlite.exec(
    `create table if not exists txmail_migration_lock (
       id integer primary key check (id = 1), pid integer not null, token text not null, taken_at integer not null)`,
  );
  const take = sqlite.transaction((): Held | undefined => {
    const held = sqlite.prepare('select pid, token from txmail_migration_lock where id = 1').get() as
      Holder | undefined;
    // Another of this process's connections counts as a holder too: its pid is alive.
    if (held && isAlive(held.pid)) return { pid: held.pid };
    sqlite
      .prepare(
        `insert into txmail_migration_lock (id, pid, token, taken_at) values (1, ?, ?, ?)
         on conflict (id) do update set pid = excluded.pid, token = excluded.token, taken_at = excluded.taken_at`,
      )
      .run(me.pid, me.token, Date.now());
    return undefined;
  });
  try {
    return take.immediate();
  } catch (err) {
    // The migrating process's own statements hold the write lock, one of them (a table rebuilt with
    // its rows) longer than the busy timeout: that is a holder too; try again later.
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return { pid: undefined };
    throw err;
  }
}
