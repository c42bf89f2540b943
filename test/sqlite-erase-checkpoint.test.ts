// After content is erased the checkpointer truncates the WAL (sqlite-checkpointer.ts): a reader in a
// long read (the reads pool, `txmail worker` beside `txmail api`, a backup) must not hold the writers
// off meanwhile. Asked with its busy timeout, the TRUNCATE checkpoint kept the write lock while it
// waited for such a reader, and the event loop's writer failed with "database is locked" after 5 s.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { until } from './helpers/wait.js';

const dir = mkdtempSync(join(tmpdir(), 'txmail-erase-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('writes on while a reader holds its snapshot after content was erased, and truncates the WAL once it ends', async () => {
  const path = join(dir, 't.db');
  const db = openDatabase(`sqlite:${path}`);
  try {
    const writer = db.sqlite!;
    writer.exec('create table t (id integer primary key, v text)');
    const insert = writer.prepare('insert into t (v) values (?)');
    for (let i = 0; i < 2000; i++) insert.run('x'.repeat(200));
    const reader = new SQLite(path, { readonly: true });
    const rows = reader.prepare('select * from t').iterate();
    rows.next(); // a read in progress holds its snapshot
    insert.run('after the reader began');
    db.erased();
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(() => insert.run('y')).not.toThrow();
    }
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
    rows.return?.();
    reader.close();
    await until('the WAL truncated', async () => (statSync(`${path}-wal`).size === 0 ? true : undefined));
  } finally {
    await db.close();
  }
});
