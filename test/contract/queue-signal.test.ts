// The queue signal seam's contract (db/seams.ts QueueSignal), on SQLite and PostgreSQL: queued() never
// throws, listen() gives a stop function; where the database has a channel between processes
// (PostgreSQL's NOTIFY), one process's queued() wakes another's listener, and on SQLite, which has none,
// a listener is never called (its worker polls).
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { dialectSeams } from '../../src/db/dialect.js';
import type { QueueSignal } from '../../src/db/seams.js';
import { queueChannel } from '../../src/db/postgres/queue-signal.js';
import { databaseKinds } from '../helpers/databases.js';

/** Whether queued() reaches the listeners of other processes. */
const CROSSES_PROCESSES = { sqlite: false, postgres: true };

describe.each(databaseKinds)('the queue signal seam on $name', (kind) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /**
   * A database for one test: on PostgreSQL a schema of its own, whose signal has a channel of its own
   * (queueChannel): a NOTIFY of this file's other tests, or of any other test's schema, wakes no
   * listener of it.
   */
  const database = async (): Promise<string> => {
    const test = await kind.create();
    cleanups.push(() => test.drop());
    return test.url;
  };
  /** A signal as a separate process has it: its own connection to the database. */
  const signal = (url: string): QueueSignal => {
    const db = openDatabase(url);
    cleanups.push(() => db.close());
    return dialectSeams(db).queueSignal(url);
  };

  it('never throws when mail is queued, listened to or not', async () => {
    const s = signal(await database());
    expect(() => {
      s.queued();
      s.queued();
    }).not.toThrow();
  });

  it.runIf(CROSSES_PROCESSES[kind.name])(
    "wakes another process's listener, from a connection of its own",
    async () => {
      const url = await database();
      const listener = signal(url);
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
        signal(url).queued();
        await next;
        expect(wakes).toBe(2);
        expect(errors).toEqual([]);
      } finally {
        await stop();
      }
    },
  );

  it.runIf(CROSSES_PROCESSES[kind.name])(
    'wakes no listener of another schema of the same database',
    async () => {
      const [mine, theirs] = [await database(), await database()];
      const listener = signal(mine);
      let wakes = 0;
      let woken: () => void = () => undefined;
      const stop = await listener.listen(
        () => {
          wakes++;
          woken();
        },
        () => undefined,
      );
      try {
        expect(wakes).toBe(1);
        // The other schema's NOTIFY, then this one's: only the second wakes the listener, and the
        // notifications of one session arrive in order.
        const other = signal(theirs);
        other.queued();
        await new Promise((resolve) => setTimeout(resolve, 50));
        const next = new Promise<void>((resolve) => (woken = resolve));
        signal(mine).queued();
        await next;
        expect(wakes).toBe(2);
      } finally {
        await stop();
      }
    },
  );

  it.runIf(!CROSSES_PROCESSES[kind.name])(
    'has no channel: a listener is never called, and stops',
    async () => {
      const url = await database();
      const listener = signal(url);
      let wakes = 0;
      const stop = await listener.listen(
        () => wakes++,
        () => undefined,
      );
      signal(url).queued();
      listener.queued();
      // Nothing is sent anywhere, so nothing can arrive later either: the no-op answers at once.
      await Promise.resolve();
      expect(wakes).toBe(0);
      expect(listener.listenerPid()).toBeUndefined();
      await expect(stop()).resolves.toBeUndefined();
    },
  );
});

describe('the queue channel of an installation', () => {
  it('is one per schema named in the URL, the shared one otherwise', () => {
    const base = 'postgres://txmail@db.internal:5432/mail';
    expect(queueChannel(base)).toBe('txmail_queue');
    expect(queueChannel(`${base}?options=${encodeURIComponent('-c search_path=tenant_a')}`)).toBe(
      'txmail_queue:tenant_a',
    );
    expect(queueChannel(`${base}?options=${encodeURIComponent('--search_path=b,public')}`)).toBe(
      'txmail_queue:b',
    );
    expect(queueChannel(`${base}?options=${encodeURIComponent('-c statement_timeout=5000')}`)).toBe(
      'txmail_queue',
    );
    const long = queueChannel(`${base}?options=${encodeURIComponent(`-c search_path=${'s'.repeat(80)}`)}`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(63);
    expect(long).toMatch(/^txmail_queue:[0-9a-f]{40}$/);
    expect(queueChannel('not a url')).toBe('txmail_queue');
  });
});
