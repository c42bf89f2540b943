// A database for a seam's contract (db/seams.ts): a fresh SQLite file or PostgreSQL schema
// (helpers/databases.ts), migrated, with its seams as db/dialect.ts picks them, an account to write for,
// and the tests' facade over its repositories (helpers/test-env.ts) to read what the seams wrote.
import { randomUUID } from 'node:crypto';
import { openDatabase, type Db } from '../../src/db/database.js';
import { dialectSeams, type DialectSeams } from '../../src/db/dialect.js';
import { createRepos } from '../../src/wiring/repos.js';
import { adminQuery, POSTGRES_URL, type DatabaseKind } from '../helpers/databases.js';
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

/**
 * A PostgreSQL database of its own (not a schema): NOTIFY reaches every listener of the database, so
 * only a database no other test uses shows that a wake-up came from the test itself.
 */
export async function ownPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `contract_${process.pid}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}
