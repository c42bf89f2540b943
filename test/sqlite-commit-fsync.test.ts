// Which SQLite commits wait for the disk (ARCHITECTURE.md, "Durability"): a claim and an attempt's record,
// of a message or of a webhook push, commit with synchronous=NORMAL (on disk at the checkpointer's next
// pass or the next accept), and the connection is back at synchronous=FULL after each, even one that
// fails, so that every accepted message still waits for its fsync before it is acknowledged.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AttemptRecord } from '../src/db/queue-record.js';
import type { QueueStore } from '../src/db/seams.js';
import { WebhookOutboxRepo, type WebhookAttemptRecord } from '../src/db/webhook-outbox-repo.js';
import { newId } from '../src/ids.js';
import { databaseKinds } from './helpers/databases.js';
import { messageRow } from './helpers/message-row.js';
import { contractDatabase, type ContractDatabase } from './contract/database.js';
import { insertEndpoint, queuePushes } from './helpers/webhook-pushes.js';

const NOW = Date.UTC(2026, 10, 24, 12);
const caps = { perEndpoint: 100, perAccount: 100 };
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
  /**
   * The synchronous levels `work` set through Kysely (`pragma synchronous = …` statements), in order:
   * seen on every statement's run, as the connection keeps its prepared statements.
   */
  const levelsRun = async (work: () => Promise<unknown>): Promise<string[]> => {
    const set: string[] = [];
    const proto = Object.getPrototypeOf(c.db.sqlite!.prepare('select 1')) as { run: () => unknown };
    const run = proto.run;
    const spy = vi.spyOn(proto, 'run').mockImplementation(function (this: { source: string }, ...args) {
      if (/^pragma synchronous =/i.test(this.source)) set.push(this.source.toLowerCase());
      return (run as (...a: unknown[]) => unknown).apply(this, args);
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

  it('claims and records webhook pushes without waiting for the fsync, and goes back to FULL after each', async () => {
    const FULL = 2;
    const around = ['pragma synchronous = normal', 'pragma synchronous = full'];
    const outbox = new WebhookOutboxRepo(c.db.kysely, c.db.dialect);
    const endpoint = await insertEndpoint(c.db.kysely, c.accountId);
    const [event] = await queuePushes(c.db.kysely, c.accountId, [NOW, NOW + 1]);
    let claimed: { id: string }[] = [];
    const claim = async () => (claimed = await outbox.claimDue('d1', NOW + 10, NOW + 60_000, 5, caps));
    expect(await levelsRun(claim)).toEqual(around);
    expect(claimed).toHaveLength(2);
    expect(level()).toBe(FULL);
    const pushRecord = (outboxId: string, attemptId: string): WebhookAttemptRecord => ({
      outboxId,
      owner: 'd1',
      status: 'delivered',
      nextAttemptAt: null,
      attempts: 1,
      attempt: {
        id: attemptId,
        webhook_id: endpoint.id,
        account_id: c.accountId,
        event_id: event!,
        event_type: 'email.delivered',
        attempt: 1,
        started_at: NOW,
        duration_ms: 1,
        success: 1,
        status_code: 200,
        response: '',
        error: null,
      },
    });
    const attemptId = newId();
    expect(await levelsRun(() => outbox.recordMany([pushRecord(claimed[0]!.id, attemptId)]))).toEqual(around);
    expect(level()).toBe(FULL);
    // A batch that fails (an attempt id already stored) still leaves the connection at FULL.
    const failing = () => outbox.recordMany([pushRecord(claimed[1]!.id, attemptId)]);
    expect(await levelsRun(failing)).toEqual(around);
    await expect(failing()).rejects.toThrow(/UNIQUE|PRIMARY/);
    expect(level()).toBe(FULL);
  });
});
