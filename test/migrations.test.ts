// Migrations come from parallel branches: one numbered earlier may be merged after a later one ran.
import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { migrations } from '../src/db/migrations/index.js';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';

describe.each(databaseKinds)('migrations on $name', (kind) => {
  let database: TestDatabase;
  let db: Db;
  afterEach(async () => {
    await db.close();
    await database.drop();
  });

  it('applies a migration merged after a later-numbered one already ran', async () => {
    database = await kind.create();
    db = openDatabase(database.url);
    // A database that ran the domains migration before the delivery one existed on its branch.
    const { '002-delivery': later, ...without } = migrations;
    expect(later).toBeDefined();
    const schema = database.pgSchema;
    const early = new Migrator({
      db: db.kysely,
      provider: { getMigrations: async () => without },
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const first = await early.migrateToLatest();
    expect(first.error).toBeUndefined();
    expect(await migrate(db)).toEqual(['002-delivery']);
    expect(await migrate(db)).toEqual([]);
  });
});
