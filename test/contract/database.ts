// A database for a seam's contract (db/seams.ts): a fresh SQLite file or PostgreSQL schema
// (helpers/databases.ts), migrated, with its seams as db/dialect.ts picks them and an account to write for.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { migrate, openDatabase, type Db } from '../../src/db/database.js';
import { dialectSeams, type DialectSeams } from '../../src/db/dialect.js';
import { POSTGRES_URL, type DatabaseKind } from '../helpers/databases.js';
import { insertAccounts } from '../helpers/webhook-pushes.js';

export interface ContractDatabase {
  db: Db;
  /** The database's URL (TXMAIL_DATABASE_URL). */
  url: string;
  seams: DialectSeams;
  accountId: string;
  close(): Promise<void>;
}

export async function contractDatabase(kind: DatabaseKind): Promise<ContractDatabase> {
  const test = await kind.create();
  const db = openDatabase(test.url);
  await migrate(db);
  const [accountId] = await insertAccounts(db.kysely, 1);
  return {
    db,
    url: test.url,
    seams: dialectSeams(db),
    accountId: accountId!,
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
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
