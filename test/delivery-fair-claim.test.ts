// The delivery queue's fair claim on SQLite and PostgreSQL (db/queue-repo.ts over db/fair-claim.ts):
// accounts in turn, the one holding the fewest leases first, so one account's backlog delays another's
// message by at most one claim; each account's messages by due time, then id; a lone account takes
// every slot of a claim; claims that never wait on each other nor lease a row twice; and a claim whose
// cost does not grow with one account's backlog nor with the delivered messages the table keeps.
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MessageRow } from '../src/db/schema.js';
import { claimFairSqlite } from '../src/db/fair-claim.js';
import { DELIVERY_CAPS, DELIVERY_QUEUE, type QueueRepo } from '../src/db/queue-repo.js';
import { newId } from '../src/ids.js';
import { databaseKinds } from './helpers/databases.js';
import { messageRow } from './helpers/message-row.js';
import { startTestEnv, type TestEnv } from './helpers/services.js';
import { insertAccounts } from './helpers/webhook-pushes.js';

describe.each(databaseKinds)('fair delivery claim on $name', (kind) => {
  let env: TestEnv;
  let queue: QueueRepo;
  beforeAll(async () => {
    env = await startTestEnv(kind);
    queue = env.services.repos.queue;
  });
  afterAll(async () => {
    await env.close();
  });
  // Every claim sees the whole queue: each test starts from an empty one.
  beforeEach(async () => {
    await db().deleteFrom('messages').execute();
  });

  const db = () => env.services.db.kysely;
  /** Names of accounts, for readable expectations: `A3` is account A's message due at 3. */
  const names = new Map<string, string>();
  const label = (rows: MessageRow[]) => rows.map((r) => `${names.get(r.account_id)}${r.next_attempt_at}`);
  const sorted = (rows: MessageRow[]) => label(rows).sort();
  /** Queues messages of the account due at `dues` (ids in that order). */
  const queueAt = async (accountId: string, dues: number[]) => {
    const rows = dues.map((due) => messageRow(accountId, { next_attempt_at: due }));
    for (let i = 0; i < rows.length; i += 1000)
      await db()
        .insertInto('messages')
        .values(rows.slice(i, i + 1000))
        .execute();
    return rows;
  };
  /** A new account named `name` with messages due at `dues`. */
  const account = async (name: string, dues: number[]) => {
    const [id] = await insertAccounts(db(), 1);
    names.set(id!, name);
    await queueAt(id!, dues);
    return id!;
  };
  const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);
  /** Records the message delivered (its lease ends). */
  const deliver = (row: MessageRow) =>
    queue.recordMany([
      {
        messageId: row.id,
        accountId: row.account_id,
        owner: row.lease_owner!,
        status: 'delivered',
        nextAttemptAt: null,
        counted: true,
        attempt: undefined,
        events: [],
        now: 1,
      },
    ]);

  it("gives each other account's message before the rest of one account's backlog, however much older the backlog", async () => {
    await account('A', range(1, 50));
    for (const [i, name] of ['B', 'C', 'D', 'E', 'F'].entries()) await account(name, [100 + i]);
    // Nobody holds a lease: every account's first message has the first turn, the oldest first.
    expect(label(await queue.claimDue('w', 1000, 60_000, 6))).toHaveLength(6);
    await db().updateTable('messages').set({ lease_owner: null, lease_expires_at: null }).execute();
    // In the order of their turns, which the worker starts them in: every account's first, oldest first.
    expect(label(await queue.claimDue('w', 1000, 60_000, 6))).toEqual([
      'A1',
      'B100',
      'C101',
      'D102',
      'E103',
      'F104',
    ]);
    // The backlog's rest, oldest first.
    expect(label(await queue.claimDue('w', 1000, 60_000, 3))).toEqual(['A2', 'A3', 'A4']);
    // With a backlog in the same claim: each account's k-th after every account's (k−1)-th.
    await account('G', [2, 3]);
    await db().updateTable('messages').set({ lease_owner: null, lease_expires_at: null }).execute();
    expect(label(await queue.claimDue('w', 1000, 60_000, 9))).toEqual([
      'A1',
      'G2',
      'B100',
      'C101',
      'D102',
      'E103',
      'F104',
      'A2',
      'G3',
    ]);
  });

  it('shares the slots between busy accounts in proportion to their plans, and still serves an idle account first', async () => {
    const [scale, free] = await insertAccounts(db(), 2);
    await db().updateTable('accounts').set({ plan: 'scale' }).where('id', '=', scale!).execute();
    await db().updateTable('accounts').set({ plan: 'free' }).where('id', '=', free!).execute();
    names.set(scale!, 'S');
    names.set(free!, 'F');
    await queueAt(scale!, range(1, 100));
    await queueAt(free!, range(1, 100));
    // Both busy and nothing held: 4 of the scale account's for each of the free account's.
    const first = await queue.claimDue('w', 1000, 60_000, 10);
    expect(first.filter((r) => r.account_id === scale)).toHaveLength(8);
    expect(first.filter((r) => r.account_id === free)).toHaveLength(2);
    // With 8 and 2 held, the next 5 go the same way (4 to 1), oldest first within each.
    expect(sorted(await queue.claimDue('w', 1000, 60_000, 5))).toEqual(['F3', 'S10', 'S11', 'S12', 'S9']);
    // A pro account with nothing in delivery (share 2) goes before both, however new its message.
    await account('P', [500]);
    expect(label(await queue.claimDue('w', 1000, 60_000, 1))).toEqual(['P500']);
  });

  it('takes the messages of an account by due time, then by id, whatever the order they were queued in', async () => {
    const a = await account('A', []);
    // Ids in the order of the list: the ties at 3 go by id.
    const ids = range(0, 5).map(() => newId());
    const dues = [5, 3, 9, 3, 1];
    await db()
      .insertInto('messages')
      .values(ids.map((id, i) => messageRow(a, { id, next_attempt_at: dues[i]! })))
      .execute();
    const order: string[] = [];
    for (let i = 0; i < 5; i++) {
      const [row, ...more] = await queue.claimDue('w', 1000, 60_000, 1);
      expect(more).toEqual([]);
      order.push(row!.id);
    }
    expect(order).toEqual([ids[4], ids[1], ids[3], ids[0], ids[2]]);
    expect(await queue.claimDue('w', 1000, 60_000, 1)).toEqual([]);
  });

  it('gives a lone account every slot of a claim, oldest first, and leaves messages not yet due', async () => {
    await account('A', [...range(1, 30), 5000]);
    expect(sorted(await queue.claimDue('w', 1000, 60_000, 25))).toEqual(
      range(1, 25)
        .map((d) => `A${d}`)
        .sort(),
    );
    expect(sorted(await queue.claimDue('w', 1000, 60_000, 25))).toEqual(
      range(26, 5)
        .map((d) => `A${d}`)
        .sort(),
    );
    expect(await queue.claimDue('w', 1000, 60_000, 25)).toEqual([]);
  });

  // SQLite prepares a statement again whenever a parameter whose value its planner read is bound, and it
  // reads a subquery's LIMIT: with the limit as a parameter, the worker's cached claim statement was
  // parsed and planned at every claim (three quarters of its cost; docs/benchmarks.md).
  it.runIf(kind.name === 'sqlite')(
    'writes the limit into the claim on SQLite, one text per number of slots',
    () => {
      const text = (limit: number) =>
        claimFairSqlite(DELIVERY_QUEUE, 'w', 1000, 60_000, limit, DELIVERY_CAPS).compile(db()).sql;
      for (const limit of [1, 12, 50]) {
        expect(text(limit)).not.toMatch(/\blimit\s+\?/i);
        expect(text(limit)).toMatch(new RegExp(`\\blimit ${limit}\\)`));
      }
      expect(() => text(1.5)).toThrow(/positive integer/);
    },
  );

  it('serves the account holding the fewest leases first, claim after claim of one slot, until a lease ends', async () => {
    await account('A', range(1, 20));
    const claim = async (limit: number, now = 1000) => sorted(await queue.claimDue('w', now, 60_000, limit));
    expect(await claim(3)).toEqual(['A1', 'A2', 'A3']);
    // B's messages are newer, but A holds 3 leases and B none.
    await account('B', range(100, 20));
    expect(await claim(1)).toEqual(['B100']);
    expect(await claim(1)).toEqual(['B101']);
    expect(await claim(1)).toEqual(['B102']);
    // 3 each: A's message is the older.
    expect(await claim(1)).toEqual(['A4']);
    expect(await claim(2)).toEqual(['A5', 'B103']);
    // A's deliveries end: its turn comes back.
    const leasedA = await db()
      .selectFrom('messages')
      .selectAll()
      .where('lease_owner', 'is not', null)
      .where('next_attempt_at', '<=', 5)
      .execute();
    for (const r of leasedA) await deliver(r);
    expect(await claim(3)).toEqual(['A6', 'A7', 'A8']);
    // Every lease expires at 60,000: then none counts, and the expired messages are due again, in turn.
    expect(await claim(4, 60_000)).toEqual(['A6', 'A7', 'B100', 'B101']);
  });

  it('never leases a message twice to workers claiming at the same moment, and leaves none behind', async () => {
    const accounts = [await account('A', range(1, 200)), await account('B', range(1, 30))];
    for (const [i, name] of ['C', 'D', 'E', 'F'].entries()) accounts.push(await account(name, [i + 1]));
    const claimed: MessageRow[] = [];
    for (let round = 0; round < 10; round++) {
      const claims = await Promise.all(
        range(0, 6).map((i) => queue.claimDue(`w${round}-${i}`, 1000, 60_000, 1 + i * 3)),
      );
      claimed.push(...claims.flat());
    }
    expect(new Set(claimed.map((r) => r.id)).size).toBe(claimed.length);
    claimed.push(...(await queue.claimDue('rest', 1000, 60_000, 1000)));
    expect(new Set(claimed.map((r) => r.id)).size).toBe(200 + 30 + 4);
    expect(claimed).toHaveLength(200 + 30 + 4);
  });

  it.runIf(kind.name === 'postgres')(
    'never waits for another claim: skips the account it is taking from and the rows it has leased, on another connection',
    async () => {
      const held = await account('H', range(1, 3));
      const rowHeld = await account('R', [10, 11]);
      await account('F', range(20, 3));
      const rLocked = await db()
        .selectFrom('messages')
        .select('id')
        .where('account_id', '=', rowHeld)
        .where('next_attempt_at', '=', 10)
        .executeTakeFirstOrThrow();
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // Another claim's transaction, on its own connection: the lock on account H (as claimFair's first
      // statement takes it) and on one row of R (as its UPDATE holds it until it commits).
      const other = db()
        .transaction()
        .execute(async (trx) => {
          await sql`select id from accounts where id = ${held} for no key update`.execute(trx);
          await sql`select id from messages where id = ${rLocked.id} for update`.execute(trx);
          locked();
          await released;
        });
      try {
        await isLocked;
        const got = await queue.claimDue('w', 1000, 60_000, 100);
        expect(sorted(got)).toEqual(['F20', 'F21', 'F22', 'R11']);
        // The send path queues mail for the held account meanwhile.
        await queueAt(held, [4]);
      } finally {
        release();
        await other;
      }
      expect(sorted(await queue.claimDue('w', 1000, 60_000, 100))).toEqual(['H1', 'H2', 'H3', 'H4', 'R10']);
    },
  );

  it("costs about the same with 20,000 messages of one account waiting (and 50,000 delivered) as with 200, while 100 other accounts' messages trickle in", async () => {
    const backlog = await account('A', range(1000, 200));
    const others = await insertAccounts(db(), 100);
    for (const [i, id] of others.entries()) {
      names.set(id, `O${i}`);
      await queueAt(id, [100_000 + i]);
    }
    if (kind.name === 'postgres') await sql`analyze messages`.execute(db());
    // Each claim takes the backlog's oldest and 19 of the others' messages; they are given back after
    // each claim, so every claim sees the same queue.
    const median = async () => {
      const times: number[] = [];
      for (let i = 0; i < 15; i++) {
        await db()
          .updateTable('messages')
          .set({ lease_owner: null, lease_expires_at: null })
          .where('lease_owner', '=', 'w')
          .execute();
        const t = performance.now();
        const got = await queue.claimDue('w', 200_000, 300_000, 20);
        times.push(performance.now() - t);
        expect(got).toHaveLength(20);
        expect(got.filter((r) => r.account_id === backlog)).toHaveLength(1);
      }
      return times.sort((x, y) => x - y)[7]!;
    };
    const small = await median();
    await queueAt(backlog, range(1200, 19_800));
    // The table keeps what it delivered: 500 delivered messages of every other account.
    for (const id of others) {
      await db()
        .insertInto('messages')
        .values(range(0, 500).map(() => messageRow(id, { status: 'delivered', next_attempt_at: null })))
        .execute();
    }
    if (kind.name === 'postgres') await sql`analyze messages`.execute(db());
    const large = await median();
    // A claim that read the backlog, or the delivered messages, would cost many times more.
    expect(large / small).toBeLessThan(5);
  }, 120_000);
});
