// The tests' migrated databases (helpers/migrated-template.ts) are copies of a template: each must be
// what the migrations make, and a txmail started on one must find nothing to migrate (db/database.ts
// migrate: an up-to-date database is not handed to Kysely's migrator at all).
import { Migrator, sql as rawSql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { migrations } from '../src/db/migrations/index.js';
import { databaseKinds } from './helpers/databases.js';

/** Every table, column, index and constraint of the database, in one comparable list. */
async function shape(db: Db): Promise<string[]> {
  if (db.dialect === 'sqlite') {
    const rows = await rawSql<{ sql: string | null; name: string }>`
      select name, sql from sqlite_master where name not like 'sqlite_%' order by name`.execute(db.kysely);
    return rows.rows.map((r) => `${r.name}: ${r.sql}`);
  }
  const columns = await rawSql<{ line: string }>`
    select table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' ||
      coalesce(column_default, '') as line
    from information_schema.columns where table_schema = current_schema()`.execute(db.kysely);
  const indexes = await rawSql<{ line: string }>`
    select indexname || ': ' || regexp_replace(indexdef, ' ON \\S+\\.', ' ON ') as line
    from pg_indexes where schemaname = current_schema()`.execute(db.kysely);
  const constraints = await rawSql<{ line: string }>`
    select conrelid::regclass::text || ' ' || conname || ': ' || pg_get_constraintdef(oid) as line
    from pg_constraint where connamespace = current_schema()::regnamespace`.execute(db.kysely);
  return [...columns.rows, ...indexes.rows, ...constraints.rows].map((r) => r.line).sort();
}

describe.each(databaseKinds)('a migrated test database on $name', (kind) => {
  it('is what the migrations make, their records included, and migrating it again does nothing', async () => {
    const copied = await kind.createMigrated();
    const migrated = await kind.create();
    const a = openDatabase(copied.url);
    const b = openDatabase(migrated.url);
    try {
      expect(await migrate(b)).toEqual(Object.keys(migrations));
      const migrator = vi.spyOn(Migrator.prototype, 'migrateToLatest');
      try {
        expect(await migrate(a)).toEqual([]);
        expect(migrator).not.toHaveBeenCalled();
      } finally {
        migrator.mockRestore();
      }
      const theirs = await shape(b);
      expect(theirs.length).toBeGreaterThan(50);
      expect(await shape(a)).toEqual(theirs);
      const recorded = async (db: Db) =>
        (await rawSql<{ name: string }>`select name from kysely_migration order by name`.execute(db.kysely))
          .rows;
      expect(await recorded(a)).toEqual(await recorded(b));
    } finally {
      await a.close();
      await b.close();
      await copied.drop();
      await migrated.drop();
    }
  });
});

describe.runIf(databaseKinds.some((k) => k.name === 'postgres'))('migrating on PostgreSQL', () => {
  it("migrates the schema it writes to even when the search path goes on to another installation's", async () => {
    const postgres = databaseKinds.find((k) => k.name === 'postgres')!;
    const other = await postgres.createMigrated();
    const mine = await postgres.create();
    const url = new URL(mine.url);
    url.searchParams.set('options', `-c search_path=${mine.pgSchema},${other.pgSchema}`);
    const db = openDatabase(url.toString());
    try {
      expect(await migrate(db)).toEqual(Object.keys(migrations));
      const tables = await rawSql<{ n: number }>`
        select count(*)::int as n from pg_tables where schemaname = ${mine.pgSchema!}`.execute(db.kysely);
      expect(tables.rows[0]!.n).toBeGreaterThan(20);
    } finally {
      await db.close();
      await mine.drop();
      await other.drop();
    }
  });
});
