// A migrated test database in a fraction of the migrations' time. Running the 30-odd migrations takes
// about 0.9 s on PostgreSQL and 0.15 s on SQLite, and hundreds of tests start a txmail on a new
// database. So the migrations run once, into a template kept in the temporary directory under a hash
// of their sources (and of Kysely's version, whose migrator writes its own tables), and each new
// database is a copy: the SQLite file copied, the PostgreSQL schema restored from pg_dump's script of
// the template (some 0.15 s). The copy holds what the migrations made, their records included, so a
// txmail started on it finds nothing to migrate. Changing a migration changes the hash: a template is
// never used for other migrations. Without pg_dump a PostgreSQL database is migrated the slow way.
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
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

/** Where the PostgreSQL template's script is kept. */
const POSTGRES_TEMPLATE = join(tmpdir(), `txmail-pg-template-${key}.sql`);

/**
 * Migrates `scratch`, a new empty schema, and keeps pg_dump's script of it with the schema's name
 * replaced by SCHEMA_TOKEN; undefined when pg_dump cannot run here.
 */
async function buildPostgresTemplate(
  url: string,
  scratch: string,
  pgUrl: string,
): Promise<string | undefined> {
  await migrateAt(url);
  let dump: string;
  try {
    ({ stdout: dump } = await promisify(execFile)(
      'pg_dump',
      ['--dbname', pgUrl, '--schema', scratch, '--no-owner', '--no-privileges', '--inserts'],
      { maxBuffer: 64 << 20 },
    ));
  } catch {
    return undefined;
  }
  const script = dump
    .split('\n')
    // psql's own commands (\restrict in recent pg_dump): the script is sent as one query.
    .filter((line) => !line.startsWith('\\'))
    // pg_dump empties the search path and names every object with its schema.
    .filter((line) => !line.startsWith("SELECT pg_catalog.set_config('search_path'"))
    .join('\n')
    .split(scratch)
    .join(SCHEMA_TOKEN);
  writeWhole(POSTGRES_TEMPLATE, (temporary) => writeFileSync(temporary, script));
  return script;
}

/**
 * Makes `schema` (which must not exist yet) a migrated schema: restored from the template's script, or
 * created and migrated when pg_dump is missing. `run` sends SQL as the server's administrator.
 */
export async function migratedPostgres(
  schema: string,
  schemaUrl: (schema: string) => string,
  pgUrl: string,
  run: (sql: string) => Promise<void>,
): Promise<void> {
  let script = existsSync(POSTGRES_TEMPLATE) ? readFileSync(POSTGRES_TEMPLATE, 'utf8') : undefined;
  if (script === undefined) {
    const scratch = `tpl_${process.pid}_${randomUUID().slice(0, 8)}`;
    await run(`create schema ${scratch}`);
    try {
      script = await buildPostgresTemplate(schemaUrl(scratch), scratch, pgUrl);
    } finally {
      await run(`drop schema if exists ${scratch} cascade`);
    }
  }
  if (script === undefined) {
    await run(`create schema ${schema}`);
    await migrateAt(schemaUrl(schema));
    return;
  }
  await run(script.split(SCHEMA_TOKEN).join(schema));
}
