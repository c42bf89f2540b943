// The checkpointer thread (src/db/sqlite-checkpointer.ts) on a real SQLite file: it copies the WAL back
// on its tick, and at once when a writer asks (checkpointSoon), which large part writes do.
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { checkpointSoon, startCheckpointer, type Checkpointer } from '../src/db/sqlite-checkpointer.js';
import { configureSqlite } from '../src/db/sqlite-pragmas.js';
import { until } from './helpers/wait.js';

let open: { db: SQLite.Database; checkpointer: Checkpointer }[] = [];
afterEach(async () => {
  for (const o of open) {
    await o.checkpointer.stop();
    o.db.close();
  }
  open = [];
});

/** A database whose checkpointer ticks once an hour: only a request makes it checkpoint in a test. */
function database() {
  const path = join(mkdtempSync(join(tmpdir(), 'txmail-checkpointer-')), 'x.db');
  const db = new SQLite(path);
  configureSqlite(db);
  // Nothing copied back by the writer itself.
  db.pragma('wal_autocheckpoint = 0');
  db.exec('create table t (b text)');
  const checkpointer = startCheckpointer(path, () => undefined, { intervalMs: 3_600_000, writer: db });
  open.push({ db, checkpointer });
  return { db, path, checkpointer };
}

/** Bytes in the database file itself: what checkpoints have copied back from the WAL. */
const fileBytes = (path: string) => statSync(path).size;

describe('the checkpointer', () => {
  it('copies the WAL back at once when the writer asks', async () => {
    const { db, path } = database();
    db.prepare('insert into t values (?)').run('x'.repeat(2 * 1024 * 1024));
    // Written to the WAL, not yet to the file.
    expect(fileBytes(path)).toBeLessThan(1024 * 1024);
    checkpointSoon(db);
    await until('the WAL to be copied back', async () => fileBytes(path) > 2 * 1024 * 1024 || undefined);
  });

  it('asks nothing of a connection it does not checkpoint, nor after it stopped', async () => {
    const other = new SQLite(':memory:');
    expect(() => checkpointSoon(other)).not.toThrow();
    other.close();
    const { db, checkpointer } = database();
    await checkpointer.stop();
    expect(() => checkpointSoon(db)).not.toThrow();
    open = [];
    db.close();
  });
});
