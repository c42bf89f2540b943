// The databases every data-layer test runs on: a fresh SQLite file and a fresh PostgreSQL schema.
// PostgreSQL is the local server (TXMAIL_TEST_POSTGRES_URL, default 127.0.0.1:5432/test). When it is
// unreachable its tests are skipped with a notice, except under CI, where that is a failure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migratedPostgres, migratedSqlite } from './migrated-template.js';
import { newSchemaName, POSTGRES_URL, restoringApplication, SCHEMA_RUN_VARIABLE } from './schema-run.js';

export { POSTGRES_URL };

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  url: string;
  /** PostgreSQL schema of this database (undefined for SQLite). */
  pgSchema: string | undefined;
  drop(): Promise<void>;
}

export interface DatabaseKind {
  name: 'sqlite' | 'postgres';
  /** A new empty database: no tables until something migrates it. */
  create(): Promise<TestDatabase>;
  /** A new database at the latest migration, empty of data, made from a template (migrated-template.ts). */
  createMigrated(): Promise<TestDatabase>;
}

function sqliteDatabase(): TestDatabase & { path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'txmail-test-'));
  const path = join(dir, 'txmail.db');
  return {
    name: 'sqlite',
    path,
    url: `sqlite:${path}`,
    pgSchema: undefined,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

const sqlite: DatabaseKind = {
  name: 'sqlite',
  create: async () => sqliteDatabase(),
  async createMigrated() {
    const { path, ...database } = sqliteDatabase();
    await migratedSqlite(path);
    return database;
  },
};

/** The URL of `schema` on the test server: its tables are found without naming it. */
function schemaUrl(schema: string): string {
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

function postgresDatabase(schema: string): TestDatabase {
  return {
    name: 'postgres',
    url: schemaUrl(schema),
    pgSchema: schema,
    drop: async () => {
      await adminQuery(`drop schema if exists ${schema} cascade`);
    },
  };
}

/** The run's mark on the schemas it makes (helpers/schema-run.ts); unset outside such a run. */
const run = process.env[SCHEMA_RUN_VARIABLE];

async function migratedSchema(): Promise<string> {
  const schema = newSchemaName(run);
  // Named, so that the run's end waits for a restore still underway before it drops what is left.
  const restoring = run === undefined ? undefined : restoringApplication(run);
  await migratedPostgres(schema, schemaUrl, POSTGRES_URL, (sql) => adminQuery(sql, restoring));
  return schema;
}

/**
 * A migrated schema made ahead, while the test that took the last one runs: restoring one is some
 * 150-200 ms of the server's time, which each test waited out before it began, on a machine otherwise
 * idle about a third of the suite. Only in the main suite (TXMAIL_TEST_SCHEMA_AHEAD, vitest.config.ts),
 * whose run drops the one left over; not in the serial lane, whose timing tests want no load beside them.
 */
const makeAhead = run !== undefined && process.env.TXMAIL_TEST_SCHEMA_AHEAD === '1';
let ahead: Promise<string> | undefined;

const postgres: DatabaseKind = {
  name: 'postgres',
  async create() {
    const schema = newSchemaName(run);
    await adminQuery(`create schema ${schema}`);
    return postgresDatabase(schema);
  },
  async createMigrated() {
    // One made ahead that failed (the server restarted under a fault test, say) is made again now.
    const taking = ahead ? ahead.catch(migratedSchema) : migratedSchema();
    ahead = undefined;
    if (makeAhead) {
      const next = taking.then(migratedSchema, migratedSchema);
      // Its failure is met by whoever takes it (above), not left unhandled meanwhile.
      next.catch(() => {});
      ahead = next;
    }
    return postgresDatabase(await taking);
  },
};

/** Runs `text` on the test server as its administrator (schemas, databases), on a connection so named. */
export async function adminQuery(
  text: string,
  applicationName?: string,
): Promise<pg.QueryResult | pg.QueryResult[]> {
  const client = new pg.Client({
    connectionString: POSTGRES_URL,
    ...(applicationName === undefined ? {} : { application_name: applicationName }),
  });
  await client.connect();
  try {
    // Several statements answer one result each.
    return (await client.query(text)) as pg.QueryResult | pg.QueryResult[];
  } finally {
    await client.end();
  }
}

async function postgresReachable(): Promise<boolean> {
  try {
    await adminQuery('select 1');
    return true;
  } catch (err) {
    if (process.env.CI)
      throw new Error(`PostgreSQL at ${POSTGRES_URL} is unreachable under CI: ${String(err)}`);
    console.warn(`PostgreSQL at ${POSTGRES_URL} is unreachable: its tests are skipped`);
    return false;
  }
}

/** The database kinds to run a suite on. */
export const databaseKinds: DatabaseKind[] = [sqlite, ...((await postgresReachable()) ? [postgres] : [])];
