// The queue signal seam's contract (db/seams.ts QueueSignal), on SQLite and PostgreSQL: queued() never
// throws, listen() gives a stop function; where the database has a channel between processes
// (PostgreSQL's NOTIFY), one process's queued() wakes another's listener, and on SQLite, which has none,
// a listener is never called (its worker polls).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/database.js';
import { dialectSeams } from '../../src/db/dialect.js';
import type { QueueSignal } from '../../src/db/seams.js';
import { databaseKinds, type TestDatabase } from '../helpers/databases.js';
import { ownPostgresDatabase } from './database.js';

/** Whether queued() reaches the listeners of other processes. */
const CROSSES_PROCESSES = { sqlite: false, postgres: true };

describe.each(databaseKinds)('the queue signal seam on $name', (kind) => {
  let url: string;
  let drop: () => Promise<void>;
  const opened: Db[] = [];
  beforeAll(async () => {
    // On PostgreSQL a database of its own: a NOTIFY from any other test would wake the listener too.
    const test: Pick<TestDatabase, 'url' | 'drop'> =
      kind.name === 'postgres' ? await ownPostgresDatabase() : await kind.create();
    url = test.url;
    drop = () => test.drop();
  });
  afterAll(async () => {
    for (const db of opened) await db.close();
    await drop();
  });

  /** A signal as a separate process has it: its own connection to the database. */
  const signal = (): QueueSignal => {
    const db = openDatabase(url);
    opened.push(db);
    return dialectSeams(db).queueSignal(url);
  };

  it('never throws when mail is queued, listened to or not', () => {
    const s = signal();
    expect(() => {
      s.queued();
      s.queued();
    }).not.toThrow();
  });

  it.runIf(CROSSES_PROCESSES[kind.name])(
    "wakes another process's listener, from a connection of its own",
    async () => {
      const listener = signal();
      let wakes = 0;
      let woken: () => void = () => undefined;
      const errors: Error[] = [];
      const stop = await listener.listen(
        () => {
          wakes++;
          woken();
        },
        (err) => errors.push(err),
      );
      try {
        // listen() wakes once on connecting, for anything queued while it connected.
        expect(wakes).toBe(1);
        expect(listener.listenerPid()).toEqual(expect.any(Number));
        const next = new Promise<void>((resolve) => (woken = resolve));
        signal().queued();
        await next;
        expect(wakes).toBe(2);
        expect(errors).toEqual([]);
      } finally {
        await stop();
      }
    },
  );

  it.runIf(!CROSSES_PROCESSES[kind.name])(
    'has no channel: a listener is never called, and stops',
    async () => {
      const listener = signal();
      let wakes = 0;
      const stop = await listener.listen(
        () => wakes++,
        () => undefined,
      );
      signal().queued();
      listener.queued();
      // Nothing is sent anywhere, so nothing can arrive later either: the no-op answers at once.
      await Promise.resolve();
      expect(wakes).toBe(0);
      expect(listener.listenerPid()).toBeUndefined();
      await expect(stop()).resolves.toBeUndefined();
    },
  );
});
