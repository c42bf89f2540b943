// The receiver's hourly budget per client on every database: messages and KiB counted in hourly windows
// in the transaction that stores the message, a refusal that stores and counts nothing, and no overshoot
// when messages race over several connections (as they do from several inbound processes).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttemptCountsRepo } from '../src/db/attempt-counts-repo.js';
import { migrate, openDatabase, type Db } from '../src/db/database.js';
import { InboundRepo } from '../src/db/inbound-repo.js';
import type { ReceivedMessage } from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { InboundBudget, type InboundBudgetLimits } from '../src/inbound/inbound-budget.js';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';

const HOUR = 3_600_000;

const inboundRow = (client: string, size: number, now: number): ReceivedMessage => ({
  id: newId(),
  received_at: now,
  remote_ip: client,
  helo: 'mta.remote.example',
  mail_from: '',
  rcpt_to: '["fbl@test.txmail.example"]',
  size,
  raw: Buffer.alloc(Math.min(size, 64), 'x').toString('base64'),
  status: 'pending',
  attempts: 0,
  lease_expires_at: now,
  lease_owner: null,
  processed_at: null,
  outcome: null,
});

describe.each(databaseKinds)('the inbound hourly budget on $name', (kind) => {
  let database: TestDatabase;
  let dbs: Db[];
  /** A budget on a connection of its own; `take` stores a message of `size` bytes counted against it. */
  const open = async (limits: InboundBudgetLimits) => {
    const db = openDatabase(database.url);
    dbs.push(db);
    await migrate(db);
    const inbound = new InboundRepo(db.kysely, db.dialect);
    const budget = new InboundBudget(new AttemptCountsRepo(db.kysely), limits);
    return {
      budget,
      async take(client: string, size: number, now: number) {
        return (await inbound.storeCharged(inboundRow(client, size, now), budget.charges(client, size), now))
          ?.limit;
      },
      async stored(client: string) {
        const rows = await db.kysely
          .selectFrom('inbound_messages')
          .select('id')
          .where('remote_ip', '=', client)
          .execute();
        return rows.length;
      },
    };
  };

  beforeEach(async () => {
    database = await kind.create();
    dbs = [];
  });
  afterEach(async () => {
    for (const db of dbs) await db.close();
    await database.drop();
  });

  it('takes messages up to the hourly count, refuses the next, and starts again after the hour', async () => {
    const { budget, take, stored } = await open({ messagesPerHour: 3, bytesPerHour: 0 });
    for (let i = 0; i < 3; i++) expect(await take('192.0.2.1', 100, 1000 + i)).toBeUndefined();
    expect(await take('192.0.2.1', 100, 2000)).toBe('hourly_messages');
    expect(await stored('192.0.2.1')).toBe(3);
    expect(await budget.room('192.0.2.1', undefined, 2000)).toEqual({
      ok: false,
      limit: 'hourly_messages',
      spent: true,
    });
    expect(await take('192.0.2.2', 100, 2000)).toBeUndefined();
    // The window began with the first message: it ends an hour later.
    expect(await budget.room('192.0.2.1', undefined, 1000 + HOUR)).toEqual({ ok: true });
    expect(await take('192.0.2.1', 100, 1000 + HOUR)).toBeUndefined();
    expect(await stored('192.0.2.1')).toBe(4);
  });

  it('counts bytes in whole KiB, refuses what would pass them and stores or counts nothing of a refusal', async () => {
    const { budget, take, stored } = await open({ messagesPerHour: 6, bytesPerHour: 10 * 1024 });
    expect(await take('c', 6 * 1024, 0)).toBeUndefined();
    // A declared size that does not fit: 452 at MAIL FROM, not the end of the hour.
    expect(await budget.room('c', 5 * 1024, 1)).toEqual({ ok: false, limit: 'hourly_bytes', spent: false });
    expect(await budget.room('c', 4 * 1024, 1)).toEqual({ ok: true });
    expect(await take('c', 5 * 1024, 1)).toBe('hourly_bytes');
    // 1 byte counts 1 KiB; the refused message above counted neither its bytes nor itself.
    for (let i = 0; i < 4; i++) expect(await take('c', 1, 2)).toBeUndefined();
    expect(await budget.room('c', undefined, 3)).toEqual({ ok: false, limit: 'hourly_bytes', spent: true });
    expect(await take('c', 1, 3)).toBe('hourly_bytes');
    expect(await stored('c')).toBe(5);
    // Five messages counted of six, though seven were offered: the sixth fits, the seventh does not.
    const byCount = await open({ messagesPerHour: 6, bytesPerHour: 0 });
    expect(await byCount.take('c', 1, 3)).toBeUndefined();
    expect(await byCount.take('c', 1, 3)).toBe('hourly_messages');
  });

  it('never lets racing messages pass the budget (over several connections on PostgreSQL)', async () => {
    // SQLite: one connection, as in a process (each process has its own thread; one thread holding two
    // connections' transactions would only wait on itself).
    const connections = async (limits: InboundBudgetLimits) => {
      if (kind.name === 'sqlite') {
        const one = await open(limits);
        return [one, one, one];
      }
      return [await open(limits), await open(limits), await open(limits)];
    };
    const counted = await connections({ messagesPerHour: 7, bytesPerHour: 0 });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => counted[i % 3]!.take('racer', 4 * 1024, 10)),
    );
    expect(results.filter((r) => r === undefined)).toHaveLength(7);
    expect(await counted[0]!.stored('racer')).toBe(7);
    const sized = await connections({ messagesPerHour: 0, bytesPerHour: 40 * 1024 });
    const byBytes = await Promise.all(
      Array.from({ length: 30 }, (_, i) => sized[i % 3]!.take('heavy', 3 * 1024, 10)),
    );
    // 40 KiB hold 13 messages of 3 KiB.
    expect(byBytes.filter((r) => r === undefined)).toHaveLength(13);
    expect(await sized[1]!.stored('heavy')).toBe(13);
    expect(await sized[2]!.budget.room('heavy', 2 * 1024, 10)).toEqual({
      ok: false,
      limit: 'hourly_bytes',
      spent: false,
    });
  });

  it('takes everything when both limits are 0', async () => {
    const { budget, take, stored } = await open({ messagesPerHour: 0, bytesPerHour: 0 });
    expect(budget.charges('c', 50 * 1024 * 1024)).toEqual([]);
    for (let i = 0; i < 5; i++) expect(await take('c', 50 * 1024 * 1024, 0)).toBeUndefined();
    expect(await stored('c')).toBe(5);
    expect(await budget.room('c', 50 * 1024 * 1024, 0)).toEqual({ ok: true });
  });
});
