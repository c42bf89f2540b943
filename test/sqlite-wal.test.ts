// The WAL stays bounded under a writer that never pauses. The checkpointer thread's PASSIVE
// checkpoints alone would let it grow without end (a busy writer always adds frames while they copy,
// so SQLite never starts the WAL over); the writing connection checkpoints itself past WAL_LIMIT_PAGES.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, WAL_LIMIT_PAGES, type Db } from '../src/db/database.js';

describe('the SQLite WAL', () => {
  let dir: string;
  let db: Db | undefined;
  afterEach(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stays near its limit while a writer commits without pause', async () => {
    dir = mkdtempSync(join(tmpdir(), 'txmail-wal-'));
    const path = join(dir, 'txmail.db');
    db = openDatabase(`sqlite:${path}`);
    const sqlite = db.sqlite!;
    sqlite.exec('create table t (id integer primary key, body text)');
    const insert = sqlite.prepare('insert into t (body) values (?)');
    const commit = sqlite.transaction((n: number) => {
      for (let i = 0; i < n; i++) insert.run('x'.repeat(3500));
    });
    const pageSize = sqlite.pragma('page_size', { simple: true }) as number;
    let most = 0;
    // Three times the limit's worth of pages, 100 rows a commit, yielding between commits so the
    // checkpointer thread runs beside the writer as it does in service.
    for (let written = 0; written < 3 * WAL_LIMIT_PAGES; written += 100) {
      commit(100);
      most = Math.max(most, statSync(`${path}-wal`).size / pageSize);
      await new Promise((r) => setImmediate(r));
    }
    expect(most).toBeGreaterThan(100);
    // The WAL file keeps the largest size it reached; without the writer's checkpoint it would hold
    // every page written here (3 × the limit). While the checkpointer thread runs a checkpoint, the
    // writer's own gives up at once (SQLite lets one run at a time), so the WAL passes the limit by
    // what is written meanwhile: more on a loaded machine (1.8 × the limit once, beside the whole
    // suite on two cores), never all of it.
    expect(most).toBeLessThan(2.5 * WAL_LIMIT_PAGES);
  });
});
