// A migrated test database in a fraction of the migrations' time. Running the 30-odd migrations takes
// about 0.9 s on PostgreSQL and 0.15 s on SQLite, and hundreds of tests start a txmail on a new
// database. So the migrations run once, into a template kept in the temporary directory under a hash
// of their sources (and of Kysely's version, whose migrator writes its own tables), and each new
// database is a copy: the SQLite file copied, the PostgreSQL schema restored from pg_dump's script of
// the template (some 0.15 s). The copy holds what the migrations made, their records included, so a
// txmail started on it finds nothing to migrate. Changing a migration changes the hash: a template is
// never used for other migrations; the PostgreSQL script is kept per server. Without pg_dump a
// PostgreSQL database is migrated the slow way.
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type pg from 'pg';
import { migrate, openDatabase } from '../../src/db/database.js';

const ROOT = join(import.meta.dirname, '..', '..');
const MIGRATIONS = join(ROOT, 'src', 'db', 'migrations');

/** Stands for the schema's name in the PostgreSQL template's script. */
const SCHEMA_TOKEN = '__txmail_template_schema__';

function templateKey(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(MIGRATIONS).sort()) {
    hash.update(file).update(readFileSync(join(MIGRATIONS, file)));
  }
  // What else shapes the copy: how the database is opened (pragmas), this file's own handling, and
  // Kysely's migrator, which writes its own tables.
  for (const file of [
    'src/db/database.ts',
    'src/db/sqlite-pragmas.ts',
    'src/db/sqlite/migration-lock.ts',
    'src/db/sqlite/migration-transactions.ts',
    'test/helpers/migrated-template.ts',
  ]) {
    hash.update(readFileSync(join(ROOT, file)));
  }
  hash.update(readFileSync(join(ROOT, 'node_modules', 'kysely', 'package.json')));
  return hash.digest('hex').slice(0, 16);
}

const key = templateKey();

/** Writes `contents` as `path` whole or not at all: test processes building one template at once. */
function writeWhole(path: string, write: (temporary: string) => void): void {
  const temporary = `${path}.${randomUUID()}`;
  write(temporary);
  renameSync(temporary, path);
}

async function migrateAt(url: string): Promise<void> {
  const db = openDatabase(url);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
}

/** Makes `path` a migrated SQLite database, copied from the template (made first if need be). */
export async function migratedSqlite(path: string): Promise<void> {
  const template = join(tmpdir(), `txmail-sqlite-template-${key}.db`);
  if (!existsSync(template)) {
    const building = `${template}.${randomUUID()}.db`;
    // Closed, the database is one file: the WAL is checkpointed into it and removed.
    await migrateAt(`sqlite:${building}`);
    renameSync(building, template);
  }
  copyFileSync(template, path);
}

/** The PostgreSQL template's script, for one server (its version and address). */
function postgresTemplatePath(server: string): string {
  const which = createHash('sha256').update(server).digest('hex').slice(0, 8);
  return join(tmpdir(), `txmail-pg-template-${key}-${which}.sql`);
}

/** The server's version, asked once a process. */
let serverVersion: Promise<string> | undefined;

/** Set when pg_dump failed once: the process's other databases are migrated without trying again. */
let dumpFailed = false;

/**
 * pg_dump's script of `schema` (migrated), with the schema's name replaced by SCHEMA_TOKEN; undefined
 * when pg_dump cannot run here (missing, or not made for this server's version).
 */
async function dumpTemplate(schema: string, pgUrl: string): Promise<string | undefined> {
  let dump: string;
  try {
    ({ stdout: dump } = await promisify(execFile)(
      'pg_dump',
      ['--dbname', pgUrl, '--schema', schema, '--no-owner', '--no-privileges', '--inserts'],
      { maxBuffer: 64 << 20 },
    ));
  } catch (err) {
    dumpFailed = true;
    console.warn(`pg_dump failed (${String(err)}): test databases are migrated one by one, which is slower`);
    return undefined;
  }
  return (
    dump
      .split('\n')
      // psql's own commands (\restrict in recent pg_dump): the script is sent as one query.
      .filter((line) => !line.startsWith('\\'))
      // pg_dump empties the search path and names every object with its schema.
      .filter((line) => !line.startsWith("SELECT pg_catalog.set_config('search_path'"))
      .join('\n')
      .split(schema)
      .join(SCHEMA_TOKEN)
  );
}

/**
 * Makes `schema` (which must not exist yet) a migrated schema: restored from the template's script; the
 * first time, migrated and dumped as the template. `query` runs SQL as the server's administrator.
 */
export async function migratedPostgres(
  schema: string,
  schemaUrl: (schema: string) => string,
  pgUrl: string,
  query: (sql: string) => Promise<pg.QueryResult[] | pg.QueryResult>,
): Promise<void> {
  serverVersion ??= query('show server_version').then((r) =>
    JSON.stringify((Array.isArray(r) ? r[0] : r)?.rows),
  );
  const path = postgresTemplatePath(`${pgUrl} ${await serverVersion}`);
  if (existsSync(path)) {
    await query(readFileSync(path, 'utf8').split(SCHEMA_TOKEN).join(schema));
    return;
  }
  await query(`create schema ${schema}`);
  await migrateAt(schemaUrl(schema));
  if (dumpFailed) return;
  const script = await dumpTemplate(schema, pgUrl);
  if (script !== undefined) writeWhole(path, (temporary) => writeFileSync(temporary, script));
}
