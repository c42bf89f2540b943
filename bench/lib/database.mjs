// A throw-away database for a benchmark: a SQLite file in a temporary folder, or a schema of its own
// in the test PostgreSQL (127.0.0.1:5432, database `test`). `drop()` removes it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';

/** `name` tells concurrent benchmarks' schemas apart (with the process id). */
export async function createDatabase(kind, name) {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'txmail-bench-'));
    return {
      url: `sqlite:${join(dir, 'txmail.db')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `bench_${name}_${process.pid}`;
  const admin = async (text) => {
    const c = new pg.Client({ connectionString: POSTGRES });
    await c.connect();
    await c.query(text);
    await c.end();
  };
  await admin(`create schema ${schema}`);
  const u = new URL(POSTGRES);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return { url: u.toString(), drop: () => admin(`drop schema ${schema} cascade`) };
}
