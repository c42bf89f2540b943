// Threads run the code beside them: run from source, a pool's thread (poolThread; startThread is
// exercised by accept-thread.test.ts) loads the .ts modules through the loader hook, not a compiled copy in dist/.
import { Piscina } from 'piscina';
import { describe, expect, it } from 'vitest';
import { besideModule, poolThread } from '../src/start-thread.js';

const entry = new URL('./fixtures/threads/source/twice.ts', import.meta.url);

describe('start-thread', () => {
  it('runs a pool thread on a .ts entry that imports a sibling by its .js name', async () => {
    const pool = new Piscina({ ...poolThread(entry), maxThreads: 1 });
    try {
      expect(await pool.run(21)).toBe(42);
    } finally {
      await pool.close();
    }
  });

  it('leaves a compiled entry as it is', () => {
    const compiled = new URL('../dist/inbound/parse-thread.js', import.meta.url);
    expect(poolThread(compiled)).toEqual({ filename: compiled.href, execArgv: [] });
  });

  it('names the source beside a module run from source, the compiled file beside a compiled one', () => {
    expect(besideModule('./parse-thread.js', 'file:///app/src/inbound/report-parser.ts').href).toBe(
      'file:///app/src/inbound/parse-thread.ts',
    );
    expect(besideModule('./parse-thread.js', 'file:///app/dist/inbound/report-parser.js').href).toBe(
      'file:///app/dist/inbound/parse-thread.js',
    );
  });
});
