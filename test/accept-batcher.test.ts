import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotaNoticeAt } from '../src/accounts/quota-warning.js';
import type { AcceptItem, AcceptOutcome } from '../src/db/accept-item.js';
import { dialectSeams } from '../src/db/dialect.js';
import { SqliteAcceptWriter } from '../src/accept/sqlite-writer.js';
import { GroupCommit } from '../src/group-commit.js';
import { databaseKinds } from './helpers/databases.js';
import { acceptItem } from './helpers/accept-item.js';
import { createTenant, startTestEnv, type TestEnv } from './helpers/services.js';

describe.each(databaseKinds)('group commit on $name', (kind) => {
  let env: TestEnv;
  let accountId: string;
  let persist: (items: AcceptItem[]) => Promise<AcceptOutcome[]>;
  let transactions = 0;
  const counting = {
    persist: (items: AcceptItem[]) => {
      transactions++;
      return persist(items);
    },
  };

  beforeAll(async () => {
    env = await startTestEnv(kind);
    accountId = (await createTenant(env.services)).accountId;
    persist = dialectSeams(env.services.db).accept(quotaNoticeAt);
  });
  afterAll(() => env.close());

  it('writes concurrent submissions in far fewer transactions than messages', async () => {
    transactions = 0;
    const batcher = new GroupCommit<AcceptItem, AcceptOutcome>((items) => counting.persist(items));
    const items = Array.from({ length: 200 }, () => acceptItem(accountId));
    const outcomes = await Promise.all(items.map((i) => batcher.submit(i)));
    expect(outcomes.every((o) => o.kind === 'accepted')).toBe(true);
    expect(transactions).toBeLessThanOrEqual(2);
    const stored = await env.statuses(items.map((i) => i.message.id));
    expect(stored).toHaveLength(200);
  });

  it('fails only the bad item of a batch, and stores its neighbours', async () => {
    const batcher = new GroupCommit<AcceptItem, AcceptOutcome>((items) => counting.persist(items));
    const existing = acceptItem(accountId);
    await batcher.submit(existing);
    const good = [acceptItem(accountId), acceptItem(accountId)];
    const duplicate = acceptItem(accountId, existing.message.id); // primary key violation
    const results = await Promise.allSettled([
      batcher.submit(good[0]!),
      batcher.submit(duplicate),
      batcher.submit(good[1]!),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const stored = await env.statuses(good.map((i) => i.message.id));
    expect(stored).toHaveLength(2);
  });

  it('stores every character of every column as given', async () => {
    const awkward = acceptItem(accountId);
    awkward.html = '<p>Ünïcødé ✓ 🙂</p>\r\n<p>{"json": [1, 2]}</p>';
    Object.assign(awkward.message, {
      subject: 'Quotes " \' braces {a,b} back\\slash NULL, comma; tab\there',
      from_name: '',
      to_name: 'Zoë "Z" O\'Brien',
      status: 'test',
      next_attempt_at: null,
      attempts: 0,
    });
    awkward.event.data = '{"warnings":["a \\"b\\""]}';
    const batcher = new GroupCommit<AcceptItem, AcceptOutcome>((items) => counting.persist(items));
    await Promise.all([batcher.submit(awkward), batcher.submit(acceptItem(accountId))]);
    const db = env.services.db.kysely;
    const message = await db
      .selectFrom('messages')
      .selectAll()
      .where('id', '=', awkward.message.id)
      .executeTakeFirstOrThrow();
    // The columns the accept path does not write start empty (content retention, re-send: 026, 027).
    expect(message).toEqual({ ...awkward.message, content_removed_at: null, resent_from: null });
    const body = await db
      .selectFrom('message_bodies')
      .selectAll()
      .where('message_id', '=', awkward.message.id)
      .executeTakeFirst();
    expect(body).toEqual({ message_id: awkward.message.id, html: awkward.html, parts: 0, sealed: 0 });
    const event = await db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', awkward.event.id)
      .executeTakeFirst();
    expect(event).toEqual(awkward.event);
  });

  it('drains everything submitted before shutting down', async () => {
    const batcher = new GroupCommit<AcceptItem, AcceptOutcome>((items) => counting.persist(items));
    const pending = Array.from({ length: 20 }, () => batcher.submit(acceptItem(accountId)));
    await batcher.drain();
    const settled = await Promise.race([
      Promise.all(pending),
      new Promise((r) => setTimeout(() => r('late'), 0)),
    ]);
    expect(settled).not.toBe('late');
  });
});

describe('group commit with several batches in flight', () => {
  it('hands over at most maxInFlight batches at once, batches what waits meanwhile, and drains', async () => {
    const releases: (() => void)[] = [];
    const batches: number[][] = [];
    let inFlight = 0;
    let most = 0;
    const batcher = new GroupCommit<number, number>(
      async (items) => {
        batches.push(items);
        most = Math.max(most, ++inFlight);
        await new Promise<void>((resolve) => releases.push(resolve));
        inFlight--;
        return items.map((i) => i * 2);
      },
      { maxInFlight: 2 },
    );
    const first = [1, 2, 3].map((i) => batcher.submit(i));
    await new Promise((r) => setImmediate(r));
    const second = [4, 5].map((i) => batcher.submit(i));
    await new Promise((r) => setImmediate(r));
    const third = [6, 7, 8].map((i) => batcher.submit(i)); // waits: two batches are out
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    const drained = batcher.drain();
    while (batches.length < 3 || releases.length > 0) {
      releases.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    await drained;
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
      [6, 7, 8],
    ]);
    expect(most).toBe(2);
    expect(await Promise.all([...first, ...second, ...third])).toEqual([2, 4, 6, 8, 10, 12, 14, 16]);
  });
});

describe('group commit bounded by weight', () => {
  it('closes a batch before the item that would take it past maxWeight, and always takes one', async () => {
    const batches: number[][] = [];
    const batcher = new GroupCommit<number, number>(
      async (items) => {
        batches.push(items);
        return items;
      },
      { weightOf: (n) => n, maxWeight: 10 },
    );
    // Submitted in one turn: without the bound they would be one batch.
    const all = [3, 4, 3, 1, 25, 2, 9, 9].map((n) => batcher.submit(n));
    expect(await Promise.all(all)).toEqual([3, 4, 3, 1, 25, 2, 9, 9]);
    // 3+4+3 = 10 fits; adding 1 would not. 25 alone is over the bound and still goes, alone.
    expect(batches).toEqual([[3, 4, 3], [1], [25], [2], [9], [9]]);
  });

  it('batches as before when no weight is given', async () => {
    const batches: number[][] = [];
    const batcher = new GroupCommit<number, number>(async (items) => {
      batches.push(items);
      return items;
    });
    await Promise.all([30, 40, 50].map((n) => batcher.submit(n)));
    expect(batches).toEqual([[30, 40, 50]]);
  });
});

describe('the SQLite writer on the event loop', () => {
  let env: TestEnv;
  let accountId: string;
  beforeAll(async () => {
    env = await startTestEnv(databaseKinds[0]!);
    accountId = (await createTenant(env.services)).accountId;
  });
  afterAll(() => env.close());

  it('writes large messages a batch each, the loop turning between them, and small ones together', async () => {
    const writer = new SqliteAcceptWriter(env.services.db, { threaded: false });
    // Counts the loop's turns while the writes go on.
    let turn = 0;
    let turning = true;
    const tick = () => {
      turn++;
      if (turning) setImmediate(tick);
    };
    setImmediate(tick);
    // Over the batch's bound (512 Ki code units) two together, under the size written in parts.
    const large = () => ({ ...acceptItem(accountId), html: `<p>${'receipt '.repeat(40_000)}</p>` });
    const items = [large(), large(), large(), acceptItem(accountId), acceptItem(accountId)];
    const turns = await Promise.all(items.map((i) => writer.submit(i).then((o) => ({ o, turn }))));
    turning = false;
    await writer.close();
    expect(turns.every((t) => t.o.kind === 'accepted')).toBe(true);
    // Each large message committed in a turn of its own; the two small ones fit beside the last.
    const [a, b, c, d, e] = turns.map((t) => t.turn);
    expect(new Set([a, b, c]).size).toBe(3);
    expect([d, e]).toEqual([c, c]);
    const stored = await env.services.db.kysely
      .selectFrom('message_bodies')
      .select(['message_id', 'html'])
      .where(
        'message_id',
        'in',
        items.map((i) => i.message.id),
      )
      .execute();
    expect(new Map(stored.map((r) => [r.message_id, r.html]))).toEqual(
      new Map(items.map((i) => [i.message.id, i.html])),
    );
  });
});
