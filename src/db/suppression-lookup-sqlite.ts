// The send path's suppression look-up on SQLite as one cached prepared statement (Kysely's SQLite
// driver prepares each statement anew, which costs more than the look-up itself; see bench/accept).
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { SuppressionFacts, SuppressionLookup } from './suppressions-repo.js';

export class SqliteSuppressionLookup implements SuppressionLookup {
  private readonly statement: SQLite.Statement<[string, string], SuppressionFacts>;

  constructor(
    private readonly kysely: Kysely<Database>,
    sqlite: SQLite.Database,
  ) {
    this.statement = sqlite.prepare(
      'select reason, created_at from suppressions where account_id = ? and address = ?',
    );
  }

  find(accountId: string, address: string): Promise<SuppressionFacts | undefined> {
    // Under Kysely's connection lock, like every raw statement (see db/database.ts).
    return this.kysely.connection().execute(async () => this.statement.get(accountId, address));
  }
}
