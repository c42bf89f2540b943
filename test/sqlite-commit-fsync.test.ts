// Which SQLite commits wait for the disk (ARCHITECTURE.md, "Durability"): a claim and an attempt's record
// commit with synchronous=NORMAL (on disk at the checkpointer's next pass or the next accept), and the
// connection is back at synchronous=FULL after each, even one that fails, so that every accepted message
// still waits for its fsync before it is acknowledged.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AttemptRecord } from '../src/db/queue-record.js';
import type { QueueStore } from '../src/db/seams.js';
import { newId } from '../src/ids.js';
import { databaseKinds } from './helpers/databases.js';
import { messageRow } from './helpers/message-row.js';
import { contractDatabase, type ContractDatabase } from './contract/database.js';

const NOW = Date.UTC(2026, 10, 24, 12);
const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;

describe('SQLite commits and the disk', () => {
  let c: ContractDatabase;
  let queue: QueueStore;
  beforeAll(async () => {
    c = await contractDatabase(sqlite);
    queue = c.seams.queue();
  });
  afterAll(() => c.close());

  const level = () => c.db.sqlite!.pragma('synchronous', { simple: true });
  /** The synchronous levels `work` set on the connection, in order. */
  const levelsSet = async (work: () => Promise<unknown>): Promise<string[]> => {
    const set: string[] = [];
    const pragma = c.db.sqlite!.pragma.bind(c.db.sqlite!);
    const spy = vi.spyOn(c.db.sqlite!, 'pragma').mockImplementation((text: string, options?: object) => {
      if (text.startsWith('synchronous =')) set.push(text);
      return pragma(text, options);
    });
    try {
      await work().catch(() => undefined);
    } finally {
      spy.mockRestore();
    }
    return set;
  };
  const record = (messageId: string, owner: string): AttemptRecord => ({
    messageId,
    accountId: c.accountId,
    owner,
    status: 'delivered',
    nextAttemptAt: null,
    counted: true,
    attempt: undefined,
    events: [{ id: newId(), type: 'email.delivered', data: {} }],
    now: NOW + 1000,
  });

  it('claims and records without waiting for the fsync, and goes back to FULL after each', async () => {
    const FULL = 2;
    const around = ['synchronous = NORMAL', 'synchronous = FULL'];
    expect(level()).toBe(FULL);
    const rows = [0, 1].map(() =>
      messageRow(c.accountId, { created_at: NOW, updated_at: NOW, next_attempt_at: NOW }),
    );
    await c.db.kysely.insertInto('messages').values(rows).execute();
    const [row, other] = rows as [(typeof rows)[0], (typeof rows)[0]];
    expect(await levelsSet(() => queue.claim('w1', NOW, NOW + 60_000, 5))).toEqual(around);
    expect(level()).toBe(FULL);
    expect(await levelsSet(() => queue.record([record(row.id, 'w1')]))).toEqual(around);
    expect(level()).toBe(FULL);
    // A record that fails (an event id twice) still leaves the connection at FULL.
    const twice = record(other.id, 'w1');
    twice.events.push(twice.events[0]!);
    const failing = () => queue.record([{ ...twice, status: 'deferred', nextAttemptAt: NOW }]);
    expect(await levelsSet(failing)).toEqual(around);
    await expect(failing()).rejects.toThrow();
    expect(level()).toBe(FULL);
  });
});
