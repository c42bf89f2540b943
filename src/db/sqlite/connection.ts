// Two rules for statements run straight on the better-sqlite3 connection that Kysely also uses.
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';

/**
 * Runs `fn` with its commit not waiting for the disk: it is on disk a moment later, when the
 * checkpointer thread or the next accept syncs the WAL (ARCHITECTURE.md, "Durability").
 */
export function withoutFsync<T>(sqlite: SQLite.Database, fn: () => T): T {
  // Through Database#pragma each time: SQLite applies `synchronous` when the statement is prepared, so
  // a prepared statement run again would not reliably set it.
  sqlite.pragma('synchronous = NORMAL');
  try {
    return fn();
  } finally {
    sqlite.pragma('synchronous = FULL');
  }
}

/**
 * Runs `fn` while no Kysely query holds the connection: a write run inside a Kysely transaction left
 * open across turns would be committed, or rolled back, with it.
 */
export function whileUnlocked<T>(kysely: Kysely<Database>, fn: () => T): Promise<T> {
  return kysely.connection().execute(async () => fn());
}
