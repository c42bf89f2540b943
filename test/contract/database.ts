// A database for a seam's contract (db/seams.ts): a fresh SQLite file or PostgreSQL schema
// (helpers/databases.ts), migrated, with its seams as db/dialect.ts picks them, an account to write for,
// and the tests' facade over its repositories (helpers/test-env.ts) to read what the seams wrote.
import { openDatabase, type Db } from '../../src/db/database.js';
import { dialectSeams, type DialectSeams } from '../../src/db/dialect.js';
import { createRepos } from '../../src/wiring/repos.js';
import type { DatabaseKind } from '../helpers/databases.js';
import { testFacade, type TestFacade } from '../helpers/test-env.js';
import { insertAccounts } from '../helpers/webhook-pushes.js';

export interface ContractDatabase {
  db: Db;
  /** The database's URL (TXMAIL_DATABASE_URL). */
  url: string;
  seams: DialectSeams;
  accountId: string;
  /** What tests read and set, through the database's repositories (no DKIM keys: no domains). */
  facade: TestFacade;
  close(): Promise<void>;
}

export async function contractDatabase(kind: DatabaseKind): Promise<ContractDatabase> {
  const test = await kind.createMigrated();
  const db = openDatabase(test.url);
  const [accountId] = await insertAccounts(db.kysely, 1);
  return {
    db,
    url: test.url,
    seams: dialectSeams(db),
    accountId: accountId!,
    facade: testFacade({ db, repos: createRepos(db) }),
    close: async () => {
      await db.close();
      await test.drop();
    },
  };
}
