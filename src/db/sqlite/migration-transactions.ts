// On SQLite, each migration runs in one transaction (ARCHITECTURE.md, "Durability", Migrations).
// Kysely's migrator runs SQLite migrations statement by statement outside any transaction (its SQLite
// adapter declares no transactional DDL, though SQLite has it), so a process killed inside a migration
// of several statements left it half applied, and every later start stopped at the first statement
// that had already run ("… already exists"). Kysely records a migration after its `up` returns: the
// window left is that one insert, not the whole migration. Except in 020 (below).
import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Migrations that open a transaction of their own: 020 rebuilds a table with foreign keys off, which
 * SQLite allows only outside a transaction. Its first statements (three added columns and an index) run
 * before that, one by one, as every migration did: released migrations are never edited.
 */
export const OWN_TRANSACTION = new Set(['020-account-reputation']);

export function inTransactions(migrations: Record<string, Migration>): Record<string, Migration> {
  return Object.fromEntries(
    Object.entries(migrations).map(([name, migration]) => [
      name,
      OWN_TRANSACTION.has(name) ? migration : { ...migration, up: (db) => inTransaction(db, migration.up) },
    ]),
  );
}

async function inTransaction(db: Kysely<unknown>, up: (db: Kysely<unknown>) => Promise<void>): Promise<void> {
  await sql`begin immediate`.execute(db);
  try {
    await up(db);
    await sql`commit`.execute(db);
  } catch (err) {
    // Some errors end the transaction themselves (and a failed commit may not): the original error is
    // the one to report, and the one connection must not stay inside a transaction.
    await sql`rollback`.execute(db).catch(() => undefined);
    throw err;
  }
}
