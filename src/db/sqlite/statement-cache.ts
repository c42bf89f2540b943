// The SQLite connection as Kysely sees it, with its prepared statements kept. Kysely's SQLite driver
// prepares every query again, and for txmail's larger statements (the webhook outbox's fair claim, the
// record of a push) parsing and planning cost more than running them: with webhooks on, preparing took
// a fifth of the event loop in bench/e2e (docs/benchmarks.md). A query of the same text reuses its
// statement; parameters are bound at each run, so only the text is the key.
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements kept; the least recently used goes first. */
export const STATEMENT_CACHE_SIZE = 500;

export function withStatementCache(
  database: SQLite.Database,
  size: number = STATEMENT_CACHE_SIZE,
): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(text: string): SqliteStatement {
      const kept = statements.get(text);
      // A statement still being iterated (a streamed query) cannot run again until it ends: that
      // query gets a statement of its own.
      if (kept !== undefined && !kept.busy) {
        // Most recently used last: a Map keeps insertion order.
        statements.delete(text);
        statements.set(text, kept);
        return kept;
      }
      const statement = database.prepare(text);
      if (kept === undefined) {
        statements.set(text, statement);
        if (statements.size > size) statements.delete(statements.keys().next().value!);
      }
      return statement;
    },
  };
}
