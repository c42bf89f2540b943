// Migrations on SQLite run under a lock of txmail's own (ARCHITECTURE.md, "Durability", Migrations).
// Kysely takes one on PostgreSQL; on SQLite it takes none, since it assumes one connection. But `txmail
// api` and `txmail worker` may share one file, and a service manager starts them together after an
// upgrade: both then applied the same migrations at once, and the second stopped at "table … already
// exists".
// The lock is an exclusive transaction held open on a small file beside the database (`<file>-migrating`,
// empty): the operating system lets it go when its process ends, however it ends, so a process killed
// mid-migration leaves no lock behind, with no pid to judge (pids are reused, and differ between the
// containers that may share a volume). The database itself is not locked meanwhile, beyond what the
// migrations' own statements take.
import SQLite from 'better-sqlite3';

export interface MigrationLockOptions {
  /** Between two tries while another connection holds the lock. */
  pollMs?: number;
  /** Told each time a try found the lock held (the roles log it once; tests count tries with it). */
  onWait?: () => void;
}

export function migrationLockPath(databasePath: string): string {
  return `${databasePath}-migrating`;
}

/** Runs `migrate` while holding the lock of the database at `databasePath`, waiting while another holds it. */
export async function withSqliteMigrationLock<T>(
  databasePath: string,
  migrate: () => Promise<T>,
  { pollMs = 100, onWait }: MigrationLockOptions = {},
): Promise<T> {
  const lock = new SQLite(migrationLockPath(databasePath));
  try {
    // A try answers at once: the event loop never waits on the lock.
    lock.pragma('busy_timeout = 0');
    while (!tryTake(lock)) {
      onWait?.();
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
    return await migrate();
  } finally {
    // Closing ends the transaction, and so the lock.
    lock.close();
  }
}

function tryTake(lock: SQLite.Database): boolean {
  try {
    lock.exec('begin exclusive');
    return true;
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) return false;
    throw err;
  }
}
