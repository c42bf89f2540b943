// The webhook outbox's fair claim on SQLite and PostgreSQL (db/fair-claim.ts): at most 4 pushes of one
// endpoint and 10 of one account leased at once, however many claims run together; the account holding
// the fewest leases served first, also by claims of one slot; oldest first within an account and an
// endpoint; claims that never wait on each other; and a claim whose cost does not grow with one
// endpoint's backlog.
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookOutboxRow } from '../src/db/schema.js';
import { WebhookOutboxRepo } from '../src/db/webhook-outbox-repo.js';
import { PUSHES_PER_ACCOUNT, PUSHES_PER_ENDPOINT } from '../src/webhooks/dispatch-limits.js';
import { databaseKinds } from './helpers/databases.js';
import { processCpuMs } from './helpers/linear-time.js';
import { createTenant, startTestEnv, type TestEnv } from './helpers/services.js';
import { dueTimes, insertAccounts, insertEndpoint, queuePushes } from './helpers/webhook-pushes.js';

const CAPS = { perEndpoint: PUSHES_PER_ENDPOINT, perAccount: PUSHES_PER_ACCOUNT };

describe.each(databaseKinds)('fair webhook claim on $name', (kind) => {
  let env: TestEnv;
  let outbox: WebhookOutboxRepo;
  beforeAll(async () => {
    env = await startTestEnv(kind);
    outbox = new WebhookOutboxRepo(env.services.db.kysely, env.services.db.dialect);
  });
  afterAll(async () => {
    await env.close();
  });
  // Every claim sees the whole outbox: each test starts from an empty one.
  beforeEach(async () => {
    await db().deleteFrom('webhook_outbox').execute();
  });

  const db = () => env.services.db.kysely;
  /** An account with one endpoint and pushes due at `dues`; the endpoint's id. */
  const account = async (dues: number[]) => {
    const tenant = await createTenant(env.services);
    const endpoint = await insertEndpoint(db(), tenant.accountId);
    await queuePushes(db(), tenant.accountId, dues);
    return { accountId: tenant.accountId, webhookId: endpoint.id };
  };
  /** A delivered push, as the outbox keeps it until retention. */
  const finished: WebhookOutboxRow = {
    id: '',
    webhook_id: '',
    event_id: '',
    account_id: '',
    status: 'delivered',
    attempts: 1,
    created_at: 1,
    next_attempt_at: null,
    lease_owner: null,
    lease_expires_at: null,
    replay: 0,
  };
  const dueOf = (rows: WebhookOutboxRow[]) => rows.map((r) => Number(r.next_attempt_at));
  const sorted = (rows: WebhookOutboxRow[]) => dueOf(rows).sort((a, b) => a - b);
  const record = (row: WebhookOutboxRow) =>
    outbox.recordMany([
      {
        outboxId: row.id,
        owner: row.lease_owner!,
        status: 'delivered',
        nextAttemptAt: null,
        attempts: 1,
        attempt: undefined,
      },
    ]);
  /** Unexpired leases per endpoint (or per account) at `now`. */
  const leasedPer = async (column: 'webhook_id' | 'account_id', now: number) => {
    const rows = await db()
      .selectFrom('webhook_outbox')
      .select([column])
      .where('lease_owner', 'is not', null)
      .where('lease_expires_at', '>', now)
      .execute();
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(r[column], (counts.get(r[column]) ?? 0) + 1);
    return counts;
  };
  const leasedPerEndpoint = (now: number) => leasedPer('webhook_id', now);
  /** An account with `endpoints` endpoints, each sent a push of every event due at `dues`. */
  const accountWith = async (endpoints: number, dues: number[]) => {
    const tenant = await createTenant(env.services);
    for (let i = 0; i < endpoints; i++) await insertEndpoint(db(), tenant.accountId);
    await queuePushes(db(), tenant.accountId, dues);
    return tenant.accountId;
  };
  /** The unexpired lease of this account that was given first (a push that ends). */
  const oldestLease = async (accountId: string) =>
    db()
      .selectFrom('webhook_outbox')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('lease_owner', 'is not', null)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .executeTakeFirstOrThrow();

  it('leases at most 4 pushes of one endpoint, oldest first, and the next only when one is recorded or a lease expires', async () => {
    await account(dueTimes(1000, 10));
    const first = await outbox.claimDue('d1', 5000, 6000, 100, CAPS);
    expect(sorted(first)).toEqual([1000, 1001, 1002, 1003]);
    expect(await outbox.claimDue('d2', 5001, 6001, 100, CAPS)).toEqual([]);
    expect(await record(first.find((r) => Number(r.next_attempt_at) === 1000)!)).toEqual([true]);
    const next = await outbox.claimDue('d2', 5002, 6002, 100, CAPS);
    expect(dueOf(next)).toEqual([1004]);
    expect(await outbox.claimDue('d3', 5003, 6003, 100, CAPS)).toEqual([]);
    // d1's three leases end at 6000: they count no more, and their pushes are due again (d2's still runs).
    const after = await outbox.claimDue('d3', 6000, 7000, 100, CAPS);
    expect(sorted(after)).toEqual([1001, 1002, 1003]);
    expect(after.every((r) => r.lease_owner === 'd3')).toBe(true);
  });

  it('holds the configured number of pushes per endpoint', async () => {
    await account(dueTimes(1000, 10));
    expect(sorted(await outbox.claimDue('d1', 5000, 6000, 100, { ...CAPS, perEndpoint: 2 }))).toEqual([
      1000, 1001,
    ]);
    expect(await outbox.claimDue('d1', 5000, 6000, 100, { ...CAPS, perEndpoint: 2 })).toEqual([]);
    expect(sorted(await outbox.claimDue('d1', 5000, 6000, 100, { ...CAPS, perEndpoint: 7 }))).toEqual(
      dueTimes(1002, 5),
    );
  });

  it("takes each account's oldest due push in turn, oldest first within an account and within an endpoint", async () => {
    // A: a backlog on one endpoint (due 1..6) and two pushes on another (7, 8); B: 10..12; C: 20.
    const tenantA = await createTenant(env.services);
    const a1 = await insertEndpoint(db(), tenantA.accountId);
    await queuePushes(db(), tenantA.accountId, dueTimes(1, 6));
    const a2 = await insertEndpoint(db(), tenantA.accountId);
    await queuePushes(db(), tenantA.accountId, [7, 8]);
    // Before a2 existed, A's first six events went to a1 only; now 7 and 8 go to both: drop a1's copies.
    await db()
      .deleteFrom('webhook_outbox')
      .where('webhook_id', '=', a1.id)
      .where('next_attempt_at', 'in', [7, 8])
      .execute();
    const b = await account([10, 11, 12]);
    await account([20]);
    const owner = (rows: WebhookOutboxRow[]) =>
      rows.map(
        (r) =>
          `${r.account_id === tenantA.accountId ? 'A' : r.account_id === b.accountId ? 'B' : 'C'}${r.next_attempt_at}`,
      );
    // Round one: each account's oldest, in the order of their due times.
    expect(owner(await outbox.claimDue('d', 100, 10_000, 3, CAPS)).sort()).toEqual(['A1', 'B10', 'C20']);
    // Round two: A's next and B's next (turn 1), then A's and B's following (turn 2).
    expect(owner(await outbox.claimDue('d', 100, 10_000, 4, CAPS)).sort()).toEqual([
      'A2',
      'A3',
      'B11',
      'B12',
    ]);
    // A's first endpoint has room for one more (4 leased); its second endpoint gives both of its pushes.
    const third = await outbox.claimDue('d', 100, 10_000, 10, CAPS);
    expect(owner(third).sort()).toEqual(['A4', 'A7', 'A8']);
    expect(third.filter((r) => r.webhook_id === a2.id)).toHaveLength(2);
    expect(await outbox.claimDue('d', 100, 10_000, 10, CAPS)).toEqual([]);
  });

  it("never leases more than 10 pushes of an account with 5 endpoints, and gives the next slot that frees to another account's newer push, claim after claim of one slot", async () => {
    // A and C: 5 endpoints each and an old backlog (150 pushes each); every endpoint could take 4.
    const a = await accountWith(5, dueTimes(1, 30));
    const c = await accountWith(5, dueTimes(100, 30));
    const b = (await account([])).accountId;
    const now = 5000;
    // A dispatcher with 20 free slots: A and C get their 10 each, and the dispatcher is full.
    const first = await outbox.claimDue('d', now, now + 60_000, 20, CAPS);
    expect(first.filter((r) => r.account_id === a)).toHaveLength(10);
    expect(first.filter((r) => r.account_id === c)).toHaveLength(10);
    // Then, slot by slot: one push ends (A's and C's in turn) and the freed slot is claimed alone. Every
    // fifth round B's newer push has just arrived, and it takes that slot, however old A's and C's are.
    for (let round = 0; round < 30; round++) {
      const bPush = round % 5 === 0 ? (await queuePushes(db(), b, [now - 1]))[0] : undefined;
      await record(await oldestLease(round % 2 === 0 ? a : c));
      const [got, ...more] = await outbox.claimDue('d', now, now + 60_000, 1, CAPS);
      expect(more).toEqual([]);
      if (bPush !== undefined) {
        expect(got).toMatchObject({ account_id: b, event_id: bPush });
        await record(got!);
      }
      const leased = await leasedPer('account_id', now);
      expect(leased.get(a) ?? 0).toBeLessThanOrEqual(10);
      expect(leased.get(c) ?? 0).toBeLessThanOrEqual(10);
    }
  });

  it('holds the configured number of pushes per account, over all its endpoints', async () => {
    const a = await accountWith(2, dueTimes(1000, 10));
    const caps = { ...CAPS, perAccount: 3 };
    const first = await outbox.claimDue('d1', 5000, 6000, 100, caps);
    expect(first.filter((r) => r.account_id === a)).toHaveLength(3);
    expect(await outbox.claimDue('d1', 5000, 6000, 100, caps)).toEqual([]);
    await record(first[0]!);
    expect(await outbox.claimDue('d1', 5000, 6000, 100, caps)).toHaveLength(1);
  });

  it('serves the account holding the fewest pushes in flight first, and between equals the oldest due push', async () => {
    // One endpoint each, with room for 10 pushes: only the account's leases decide.
    const caps = { perEndpoint: 10, perAccount: 10 };
    const name = new Map<string, string>();
    const owner = (rows: WebhookOutboxRow[]) =>
      rows.map((r) => `${name.get(r.account_id)}${r.next_attempt_at}`).sort();
    const claim = async (limit: number) => owner(await outbox.claimDue('d', 5000, 60_000, limit, caps));
    name.set((await account(dueTimes(1, 10))).accountId, 'A');
    expect(await claim(3)).toEqual(['A1', 'A2', 'A3']);
    // B arrives with newer pushes: A holds 3, B none.
    name.set((await account(dueTimes(20, 10))).accountId, 'B');
    expect(await claim(1)).toEqual(['B20']);
    name.set((await account(dueTimes(40, 10))).accountId, 'C');
    expect(await claim(1)).toEqual(['C40']);
    // A 3, B 1, C 1: B and C alternate, the older push first, until they hold as many as A.
    expect(await claim(1)).toEqual(['B21']);
    expect(await claim(1)).toEqual(['C41']);
    expect(await claim(1)).toEqual(['B22']);
    expect(await claim(1)).toEqual(['C42']);
    // 3 each: A's push is the oldest.
    expect(await claim(1)).toEqual(['A4']);
    // A 4, B 3, C 3: B's and C's fourth, then the oldest of the fifth turn, A's.
    expect(await claim(3)).toEqual(['A5', 'B23', 'C43']);
  });

  it('never leases more than 4 pushes of one endpoint to dispatchers claiming at the same moment', async () => {
    const endpoints = [await account(dueTimes(1000, 60)), await account(dueTimes(1000, 60))];
    let now = 5000;
    for (let round = 0; round < 6; round++) {
      now += 10;
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) => outbox.claimDue(`d${round}-${i}`, now, now + 60_000, 3, CAPS)),
      );
      const leased = await leasedPerEndpoint(now);
      for (const e of endpoints) expect(leased.get(e.webhookId) ?? 0).toBeLessThanOrEqual(4);
      expect(new Set(claims.flat().map((r) => r.id)).size).toBe(claims.flat().length);
      // Whatever the claims skipped, one more fills each endpoint to exactly 4.
      await outbox.claimDue(`top-up-${round}`, now, now + 60_000, 100, CAPS);
      const full = await leasedPerEndpoint(now);
      for (const e of endpoints) expect(full.get(e.webhookId)).toBe(4);
      // Two pushes of each endpoint finish before the next round.
      for (const e of endpoints) {
        const mine = await db()
          .selectFrom('webhook_outbox')
          .selectAll()
          .where('webhook_id', '=', e.webhookId)
          .where('lease_owner', 'is not', null)
          .limit(2)
          .execute();
        for (const r of mine) await record(r);
      }
    }
  });

  it('never leases more than 10 pushes of one account to dispatchers claiming at the same moment', async () => {
    // 5 endpoints with room for 4 each: only the account's cap stops the claims at 10.
    const accounts = [await accountWith(5, dueTimes(1000, 40)), await accountWith(5, dueTimes(1000, 40))];
    let now = 5000;
    for (let round = 0; round < 6; round++) {
      now += 10;
      // Claims of 1 to 4 slots pick different numbers of A's endpoints, so they do not all meet on the
      // same endpoint's lock: only the account's keeps them within its cap.
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          outbox.claimDue(`d${round}-${i}`, now, now + 60_000, 1 + (i % 4), CAPS),
        ),
      );
      const leased = await leasedPer('account_id', now);
      for (const a of accounts) expect(leased.get(a) ?? 0).toBeLessThanOrEqual(10);
      expect(new Set(claims.flat().map((r) => r.id)).size).toBe(claims.flat().length);
      // Whatever the claims skipped, one more fills each account to exactly 10.
      await outbox.claimDue(`top-up-${round}`, now, now + 60_000, 100, CAPS);
      const full = await leasedPer('account_id', now);
      for (const a of accounts) expect(full.get(a)).toBe(10);
      // Three pushes of each account finish before the next round.
      for (const a of accounts) for (let i = 0; i < 3; i++) await record(await oldestLease(a));
    }
  });

  it.runIf(kind.name === 'postgres')(
    'never waits for a claim in progress: skips the endpoint it holds, takes the others, and lets pushes be queued meanwhile',
    async () => {
      const held = await account(dueTimes(1000, 3));
      const free = await account(dueTimes(2000, 3));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // Another claim's transaction, holding the lock on `held` (as claimFair's first statement takes it).
      const other = db()
        .transaction()
        .execute(async (trx) => {
          await sql`select id from webhooks where id = ${held.webhookId} for no key update`.execute(trx);
          locked();
          await released;
        });
      try {
        await isLocked;
        const got = await outbox.claimDue('d', 5000, 6000, 100, CAPS);
        expect(got.map((r) => r.webhook_id)).toEqual([free.webhookId, free.webhookId, free.webhookId]);
        // The event path queues pushes to the held endpoint without waiting for that claim.
        const tenant = await db()
          .selectFrom('webhooks')
          .select('account_id')
          .where('id', '=', held.webhookId)
          .executeTakeFirstOrThrow();
        await queuePushes(db(), tenant.account_id, [1500]);
      } finally {
        release();
        await other;
      }
      expect(sorted(await outbox.claimDue('d', 5000, 6000, 100, CAPS))).toEqual([1000, 1001, 1002, 1500]);
    },
  );

  it.runIf(kind.name === 'postgres')(
    'never waits for a claim that holds an account: skips every endpoint of it, takes the others, and lets its pushes be queued meanwhile',
    async () => {
      const held = await accountWith(2, dueTimes(1000, 2));
      const free = await account(dueTimes(2000, 3));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      // Another claim's transaction, holding the lock on the account (as claimFair's first statement takes it).
      const other = db()
        .transaction()
        .execute(async (trx) => {
          await sql`select id from accounts where id = ${held} for no key update`.execute(trx);
          locked();
          await released;
        });
      try {
        await isLocked;
        const got = await outbox.claimDue('d', 5000, 6000, 100, CAPS);
        expect(got.map((r) => r.webhook_id)).toEqual([free.webhookId, free.webhookId, free.webhookId]);
        await queuePushes(db(), held, [1500]);
      } finally {
        release();
        await other;
      }
      const after = await outbox.claimDue('d', 5000, 6000, 100, CAPS);
      expect(after.every((r) => r.account_id === held)).toBe(true);
      expect(sorted(after)).toEqual([1000, 1000, 1001, 1001, 1500, 1500]);
    },
  );

  it("costs about the same with 20,000 pushes waiting on one endpoint (and 50,000 finished) as with 200, while 100 other accounts' pushes trickle in", async () => {
    const backlog = await account(dueTimes(1000, 200));
    const others: WebhookOutboxRow[] = [];
    for (const [i, accountId] of (await insertAccounts(db(), 100)).entries()) {
      const w = await insertEndpoint(db(), accountId);
      const [eventId] = await queuePushes(db(), accountId, [100_000 + i, 100_500 + i]);
      others.push({ ...finished, id: '', webhook_id: w.id, event_id: eventId!, account_id: accountId });
    }
    if (kind.name === 'postgres') await sql`analyze webhook_outbox`.execute(db());
    // SQLite runs in this process: its CPU time leaves out what the rest of a busy machine takes (a
    // wall-clock median measured at a quiet moment against one at a busy moment failed once). The
    // PostgreSQL server works in another process, so there the wall clock is what there is.
    const clock = kind.name === 'sqlite' ? processCpuMs : () => performance.now();
    // Each claim finds the backlog endpoint at its cap and takes 20 of the other accounts' pushes; they
    // are given back after each claim, so every claim sees the same queue.
    const median = async () => {
      const times: number[] = [];
      for (let i = 0; i < 15; i++) {
        await db()
          .updateTable('webhook_outbox')
          .set({ lease_owner: null, lease_expires_at: null })
          .where('lease_owner', '=', 'd')
          .execute();
        const t = clock();
        const got = await outbox.claimDue('d', 200_000, 300_000, 20, CAPS);
        times.push(clock() - t);
        expect(got).toHaveLength(20);
      }
      return times.sort((x, y) => x - y)[7]!;
    };
    const oldest = await db()
      .selectFrom('webhook_outbox')
      .select('id')
      .where('webhook_id', '=', backlog.webhookId)
      .orderBy('next_attempt_at')
      .limit(4)
      .execute();
    await db()
      .updateTable('webhook_outbox')
      .set({ lease_owner: 'busy', lease_expires_at: 300_000 })
      .where(
        'id',
        'in',
        oldest.map((r) => r.id),
      )
      .execute();
    expect((await leasedPerEndpoint(200_000)).get(backlog.webhookId)).toBe(4);
    const small = await median();
    await queuePushes(db(), backlog.accountId, dueTimes(1200, 19_800));
    // The outbox keeps what it delivered until retention: 500 finished pushes on every other endpoint.
    const history = others.flatMap((o) =>
      Array.from({ length: 500 }, (_, n) => ({ ...o, id: `${o.event_id}:${o.webhook_id}:done-${n}` })),
    );
    for (let i = 0; i < history.length; i += 1000)
      await db()
        .insertInto('webhook_outbox')
        .values(history.slice(i, i + 1000))
        .execute();
    if (kind.name === 'postgres') await sql`analyze webhook_outbox`.execute(db());
    const large = await median();
    // A claim that read the backlog, or an endpoint's finished pushes, would cost many times more.
    expect(large / small).toBeLessThan(5);
  }, 60_000);
});
