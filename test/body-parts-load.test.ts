// Large HTML in parts under load, found by a review: parts of many sends at once share the loop's turns;
// a missing part never leaves a hole in delivered HTML; the sweep of orphans does not grow with the
// parts kept; a parsing thread that dies by 'error' answers 503.
import { v7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteAcceptWriter } from '../src/accept/sqlite-writer.js';
import { RetentionRepo } from '../src/db/retention-repo.js';
import { JsonParserThread, ThreadStopped } from '../src/http/json-thread.js';
import { acceptItem } from './helpers/accept-item.js';
import { databaseKinds } from './helpers/databases.js';
import { contractDatabase, type ContractDatabase } from './contract/database.js';

const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;

describe('large HTML in parts, under load', () => {
  let c: ContractDatabase;
  let writer: SqliteAcceptWriter;
  beforeAll(async () => {
    c = await contractDatabase(sqlite);
    writer = new SqliteAcceptWriter(c.db, { threaded: false });
  });
  afterAll(async () => {
    await writer.close();
    await c.close();
  });

  it('writes one part a turn of the loop for all the large sends at once, not one each', async () => {
    const stmt = (
      writer as unknown as { parts: { store: { insert: { run: (...a: unknown[]) => unknown } } } }
    ).parts.store.insert;
    const run = stmt.run.bind(stmt);
    let inserts = 0;
    stmt.run = (...a: unknown[]) => {
      inserts++;
      return run(...a);
    };
    // An immediate queued by an immediate runs in the next iteration: between two runs of `tick`, one
    // iteration's part inserts.
    let most = 0;
    let seen = 0;
    let on = true;
    const tick = () => {
      most = Math.max(most, inserts - seen);
      seen = inserts;
      if (on) setImmediate(tick);
    };
    setImmediate(tick);
    const html = `<p>${'receipt '.repeat(300_000)}</p>`; // 19 parts
    try {
      const outcomes = await Promise.all(
        Array.from({ length: 16 }, () => writer.submit({ ...acceptItem(c.accountId), html })),
      );
      expect(outcomes.every((o) => o.kind === 'accepted')).toBe(true);
    } finally {
      on = false;
      stmt.run = run;
    }
    expect(inserts).toBe(16 * 19);
    // Before: 16 (every send wrote its next part in the same iteration).
    expect(most).toBeLessThanOrEqual(2);
  });

  it('never gives the claim an HTML with a part missing', async () => {
    const html = `<p>${'0123456789'.repeat(80_000)}</p>`;
    const item = { ...acceptItem(c.accountId), html };
    expect((await writer.submit(item)).kind).toBe('accepted');
    await c.db.kysely
      .deleteFrom('message_body_parts')
      .where('message_id', '=', item.message.id)
      .where('seq', '=', 2)
      .execute();
    const claimed = await c.seams.queue().claim('w', Date.now() + 1000, Date.now() + 60_000, 50);
    const got = claimed.find((m) => m.id === item.message.id)!.html;
    // Before: the HTML with 128 Ki units cut out of its middle, delivered without a word.
    expect(got === '' || got === html).toBe(true);
  });

  it("sweeps orphans without reading every stored message's parts (it runs every minute, on the loop)", async () => {
    const sq = c.db.sqlite!;
    const repo = new RetentionRepo(c.db.kysely);
    /** The sweep's least time of five, finding nothing to sweep. */
    const sweep = async () => {
      let least = Infinity;
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        expect(await repo.deleteOrphanBodyParts(Date.now() - 3600_000, 500)).toBe(0);
        least = Math.min(least, performance.now() - t);
      }
      return least;
    };
    const before = await sweep();
    sq.pragma('foreign_keys = OFF');
    const old = Date.now() - 3 * 24 * 3600_000;
    const body = sq.prepare("insert into message_bodies (message_id, html, parts) values (?, '', 8)");
    const part = sq.prepare("insert into message_body_parts (message_id, seq, part) values (?, ?, 'x')");
    const N = 30_000; // stored messages of ~1 MiB HTML (8 parts each), none orphaned
    sq.transaction(() => {
      for (let i = 0; i < N; i++) {
        const id = v7({ msecs: old + i });
        body.run(id);
        for (let s = 0; s < 8; s++) part.run(id, s);
      }
    })();
    sq.pragma('foreign_keys = ON');
    // Measured against itself in this run: scanning the 240,000 parts took 100-300 ms against about 1.
    expect(await sweep()).toBeLessThan(Math.max(before * 5, 5));
  });
});

describe('the JSON thread', () => {
  it("answers the body it was parsing ThreadStopped (503) when the thread dies by 'error', not a bare Error (500)", async () => {
    const thread = new JsonParserThread();
    try {
      const parsing = thread.parse(Buffer.from(`{"a":"${'x'.repeat(4 * 1024 * 1024)}"}`));
      // What Node emits first for an uncaught error or ERR_WORKER_OUT_OF_MEMORY in the thread.
      (thread as unknown as { worker: { emit(e: string, err: Error): void } }).worker.emit(
        'error',
        new Error('Worker terminated due to reaching memory limit: JS heap out of memory'),
      );
      await expect(parsing).rejects.toBeInstanceOf(ThreadStopped);
    } finally {
      await thread.close();
    }
  });
});
