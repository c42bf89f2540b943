// Opens the database named by TXMAIL_DATABASE_URL: embedded SQLite (default) or PostgreSQL.
// Everything above this file talks to Kysely and does not care which one it got, except the few
// seams (seams.ts, picked by dialect.ts) and the few repository statements that lock rows on PostgreSQL
// only (they check `db.dialect`).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { migrations } from './migrations/index.js';
import { withSqliteMigrationLock, type MigrationLockOptions } from './sqlite/migration-lock.js';
import { inTransactions } from './sqlite/migration-transactions.js';
import { startCheckpointer } from './sqlite-checkpointer.js';
import { configureSqlite } from './sqlite-pragmas.js';
import { openSqliteReader } from './sqlite/reader.js';
import { withStatementCache } from './sqlite/statement-cache.js';

export type Dialect = 'sqlite' | 'postgres';

/** The WAL's length (pages) at which the writing connection checkpoints itself: 64 MiB of 4 KiB pages. */
export const WAL_LIMIT_PAGES = 16_384;

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** Where the SQLite file lives (for the generated secret key); undefined on PostgreSQL. */
  sqlitePath: string | undefined;
  /**
   * The raw SQLite handle, for the few hot paths that use cached prepared statements. Only ever use it
   * inside `kysely.connection().execute(…)`, which holds Kysely's lock on this single connection, so it
   * can never run inside a transaction Kysely has open.
   */
  sqlite: SQLite.Database | undefined;
  /**
   * Where reads whose cost grows with what an account has stored run (the log's search, export and
   * views): on a SQLite file, reader threads (sqlite/reader.ts), off the event loop; elsewhere `kysely`
   * (PostgreSQL's driver waits off the loop already; an in-memory database has one connection).
   */
  reads: Kysely<Database>;
  /**
   * Content was erased (a sealed message's link, content past its retention): leave no copy of it in
   * the database's own files. On a SQLite file its pages were overwritten with zeros (secure_delete,
   * sqlite-pragmas.ts), and this truncates the WAL, whose old frames still hold them. PostgreSQL keeps
   * dead rows until VACUUM and old WAL segments until recycled, which this does not reach.
   */
  erased(): void;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL pool size. */
  poolSize?: number;
}

export function openDatabase(url: string, options: OpenOptions = {}): Db {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length));
  return openPostgres(url, options);
}

/**
 * SQLite transactions begin IMMEDIATE: the write lock is taken, waiting out another connection's writer
 * (busy_timeout), before the first read. A deferred transaction that reads and then writes cannot take
 * the lock once another connection (the accept thread, another process) has committed since its read:
 * SQLite then fails the write at once with "database is locked", without waiting. A sign-up failed so
 * while mail was being accepted. SQLite has one writer at a time either way.
 *
 * A transaction that asks for REPEATABLE READ is a snapshot read (it writes nothing): it begins
 * deferred, as readers never wait in WAL mode and must not hold up a writer (MessagesRepo.detail).
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(
    connection: DatabaseConnection,
    settings?: TransactionSettings,
  ): Promise<void> {
    const snapshotRead = settings?.isolationLevel === 'repeatable read';
    await connection.executeQuery(CompiledQuery.raw(snapshotRead ? 'begin' : 'begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

function openSqlite(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  configureSqlite(database);
  const kysely = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(database) }),
  });
  if (path === ':memory:') {
    return {
      kysely,
      dialect: 'sqlite',
      sqlitePath: path,
      sqlite: database,
      reads: kysely,
      erased: () => undefined,
      close: () => kysely.destroy(),
    };
  }
  // Checkpoints run in a background thread (see sqlite-checkpointer.ts); the WAL is still checkpointed
  // by this connection when it closes. That thread's PASSIVE checkpoints cannot shorten the WAL under a
  // steady stream of commits: SQLite starts the WAL over only when a writer finds every frame copied
  // back, and a busy writer always adds frames during the copy, so the WAL grows without end (600 MB
  // in one bench/accept run, every read searching a longer WAL index). The writer itself therefore
  // still checkpoints once the WAL passes WAL_LIMIT_PAGES: by then the thread has copied all but the
  // last moments' frames, so it is short, and the next commit starts the WAL over.
  database.pragma(`wal_autocheckpoint = ${WAL_LIMIT_PAGES}`);
  const checkpointer = startCheckpointer(
    path,
    (message) => process.emitWarning(`SQLite checkpoint: ${message}`),
    { writer: database },
  );
  const reads = openSqliteReader(path);
  return {
    kysely,
    dialect: 'sqlite',
    sqlitePath: path,
    sqlite: database,
    reads,
    erased: () => checkpointer.truncate(),
    close: async () => {
      await reads.destroy();
      await checkpointer.stop();
      await kysely.destroy();
    },
  };
}

function openPostgres(url: string, options: OpenOptions): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: {
      // bigint columns hold millisecond timestamps and counters, well inside Number's exact range.
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client losing its server (e.g. PostgreSQL restarting) must not crash the process;
  // the pool discards the client and the next query gets a fresh one.
  pool.on('error', () => undefined);
  // A client checked out between two queries (inside a transaction) has no error listener: pg-pool
  // removes its own at check-out. A server shutting down sends every backend an error message, which
  // would then crash the process. The query in flight, if any, still fails with it; the pool drops the
  // broken client when it is released.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    kysely,
    dialect: 'postgres',
    sqlitePath: undefined,
    sqlite: undefined,
    reads: kysely,
    erased: () => undefined,
    close: () => kysely.destroy(),
  };
}

/**
 * Applies every pending migration; safe to run from several processes at once. On PostgreSQL Kysely
 * takes a lock; on SQLite it takes none, so txmail takes its own (sqlite/migration-lock.ts).
 */
export async function migrate(db: Db, lock: MigrationLockOptions = {}): Promise<string[]> {
  if (await hasEveryMigration(db)) return [];
  const apply = async () => {
    // Kysely's migrator looks again under the lock: what another process applied meanwhile is skipped.
    const { error, results } = await (await migratorFor(db)).migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  };
  // An in-memory database has one connection, and nobody to race.
  if (db.sqlitePath === undefined || db.sqlitePath === ':memory:') return apply();
  return withSqliteMigrationLock(db.sqlitePath, apply, lock);
}

/**
 * Whether the database records exactly txmail's migrations as applied. Kysely's migrator looks for its
 * own tables through its introspection of every table of the database, which on PostgreSQL is one query
 * over the columns of every schema: about a second with a few hundred tables, twice at every start, and
 * longer the more the database holds. A process starting on an up-to-date database (every start but
 * the first after an upgrade) needs none of it. Anything else (a table missing, a migration pending or
 * unknown) is left to the migrator.
 */
async function hasEveryMigration(db: Db): Promise<boolean> {
  type Found = { found: string | null };
  // On PostgreSQL, in the schema the migrator uses (migratorFor): a search path that goes on to another
  // schema must not lend this database another installation's records. to_regclass answers the table's
  // name qualified by its schema (quoted where need be), which the look-up below then reads.
  const table =
    db.dialect === 'postgres'
      ? sql<Found>`select to_regclass(format('%I.kysely_migration', current_schema()))::text as found`
      : sql<Found>`select name as found from sqlite_master where type = 'table' and name = 'kysely_migration'`;
  const [row] = (await table.execute(db.kysely)).rows;
  if (!row?.found) return false;
  const applied = await sql<{ name: string }>`select name from ${sql.raw(row.found)}`.execute(db.kysely);
  const known = Object.keys(migrations);
  const names = new Set(applied.rows.map((r) => r.name));
  return names.size === known.length && known.every((name) => names.has(name));
}

/** The migrator of txmail's migrations on `db` (tests also migrate to a given one). */
export async function migratorFor(db: Db): Promise<Migrator> {
  // On PostgreSQL, name the schema explicitly: Kysely otherwise looks for its bookkeeping tables in
  // every schema and can mistake another schema's for ours (e.g. several txmail schemas in one database).
  const schema =
    db.dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db.kysely)).rows[0]?.schema
      : undefined;
  const list = db.dialect === 'sqlite' ? inTransactions(migrations) : migrations;
  return new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => list },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

/** True when the database answers a trivial query (readiness probe). */
export async function isReachable(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db.kysely);
    return true;
  } catch {
    return false;
  }
}
