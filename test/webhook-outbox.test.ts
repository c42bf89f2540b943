// The webhook outbox's data layer on SQLite and PostgreSQL: the fan-out written with the events (both
// the Kysely transaction and SQLite's prepared statements), atomic with them, and the leased claim.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttemptRecord } from '../src/db/queue-repo.js';
import type { EventType, WebhookRow } from '../src/db/schema.js';
import { enqueueWebhookEvents } from '../src/db/webhook-enqueue.js';
import { WebhookOutboxRepo } from '../src/db/webhook-outbox-repo.js';
import { newId } from '../src/ids.js';
import { PUSHES_PER_ACCOUNT, PUSHES_PER_ENDPOINT } from '../src/webhooks/dispatch-limits.js';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, type TestEnv } from './helpers/services.js';
import { messageRow } from './helpers/message-row.js';

const CAPS = { perEndpoint: PUSHES_PER_ENDPOINT, perAccount: PUSHES_PER_ACCOUNT };

describe.each(databaseKinds)('webhook outbox on $name', (kind) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv(kind);
  });
  afterAll(async () => {
    await env.close();
  });

  const db = () => env.services.db.kysely;
  const endpoint = async (accountId: string, types: string, enabled = 1): Promise<WebhookRow> => {
    const row: WebhookRow = {
      id: newId(),
      account_id: accountId,
      url: 'https://hooks.example.com/',
      description: '',
      event_types: types,
      enabled,
      disabled_reason: null,
      secret: 'sealed',
      previous_secret: null,
      previous_secret_until: null,
      created_at: 1,
      updated_at: 1,
    };
    await db().insertInto('webhooks').values(row).execute();
    return row;
  };
  /** A queued message leased to `owner`, as the worker holds it while delivering. */
  const leasedMessage = async (accountId: string, owner: string) => {
    const row = messageRow(accountId, { lease_owner: owner, lease_expires_at: Date.now() + 60_000 });
    await db().insertInto('messages').values(row).execute();
    return row.id;
  };
  const record = (
    messageId: string,
    accountId: string,
    owner: string,
    types: EventType[],
  ): AttemptRecord => ({
    messageId,
    accountId,
    owner,
    status: 'delivered',
    nextAttemptAt: null,
    counted: true,
    attempt: undefined,
    events: types.map((type) => ({ id: newId(), type, data: {} })),
    now: 1000,
  });
  const outboxOf = (accountId: string) =>
    db().selectFrom('webhook_outbox').selectAll().where('account_id', '=', accountId).orderBy('id').execute();

  it("the worker's record writes one outbox row per enabled endpoint subscribed to the event's type", async () => {
    const tenant = await createTenant(env.services);
    const other = await createTenant(env.services);
    const both = await endpoint(tenant.accountId, ',email.delivered,email.bounced,');
    const delayedOnly = await endpoint(tenant.accountId, ',email.delivery_delayed,');
    await endpoint(tenant.accountId, ',email.delivered,', 0); // disabled
    await endpoint(other.accountId, ',email.delivered,'); // another account's
    const messageId = await leasedMessage(tenant.accountId, 'w1');
    const r = record(messageId, tenant.accountId, 'w1', ['email.delivered', 'email.queued']);
    expect(await env.recordAttempts([r])).toEqual(['applied']);
    const rows = await outboxOf(tenant.accountId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: `${r.events[0]!.id}:${both.id}`,
      webhook_id: both.id,
      event_id: r.events[0]!.id,
      status: 'pending',
      attempts: 0,
      created_at: 1000,
      next_attempt_at: 1000,
      lease_owner: null,
    });
    expect(rows.some((row) => row.webhook_id === delayedOnly.id)).toBe(false);
    expect(await outboxOf(other.accountId)).toEqual([]);
    // A type whose name holds a LIKE wildcard matches only itself.
    const m2 = await leasedMessage(tenant.accountId, 'w1');
    await env.recordAttempts([record(m2, tenant.accountId, 'w1', ['email.delivery_delayed'])]);
    expect(
      (await outboxOf(tenant.accountId)).filter((row) => row.webhook_id === delayedOnly.id),
    ).toHaveLength(1);
  });

  it('tells the process after a commit that queued pushes, and only then', async () => {
    const tenant = await createTenant(env.services);
    const queue = env.services.repos.queue;
    let told = 0;
    const off = queue.webhookPushesQueued.on(() => told++);
    try {
      const m1 = await leasedMessage(tenant.accountId, 'w1');
      await queue.recordMany([record(m1, tenant.accountId, 'w1', ['email.delivered'])]);
      expect(told).toBe(0); // no endpoint yet
      await endpoint(tenant.accountId, ',email.delivered,');
      const m2 = await leasedMessage(tenant.accountId, 'w1');
      await queue.recordMany([record(m2, tenant.accountId, 'w1', ['email.delivered'])]);
      expect(told).toBe(1);
    } finally {
      off();
    }
  });

  it('writes nothing when the lease was lost (the record does not apply)', async () => {
    const tenant = await createTenant(env.services);
    await endpoint(tenant.accountId, ',email.delivered,');
    const messageId = await leasedMessage(tenant.accountId, 'someone-else');
    expect(
      await env.recordAttempts([record(messageId, tenant.accountId, 'w1', ['email.delivered'])]),
    ).toEqual(['lease_lost']);
    expect(await outboxOf(tenant.accountId)).toEqual([]);
  });

  it("enqueueWebhookEvents joins the caller's transaction: a rollback takes the rows with the event", async () => {
    const tenant = await createTenant(env.services);
    await endpoint(tenant.accountId, ',email.complained,');
    const messageId = await leasedMessage(tenant.accountId, 'w1');
    const event = {
      id: newId(),
      message_id: messageId,
      account_id: tenant.accountId,
      type: 'email.complained' as const,
      created_at: 5,
      data: '{}',
    };
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('events').values(event).execute();
          await enqueueWebhookEvents(trx, [event]);
          expect(
            await trx.selectFrom('webhook_outbox').selectAll().where('event_id', '=', event.id).execute(),
          ).toHaveLength(1);
          throw new Error('roll back');
        }),
    ).rejects.toThrow('roll back');
    expect(await outboxOf(tenant.accountId)).toEqual([]);
    await db()
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('events').values(event).execute();
        await enqueueWebhookEvents(trx, [event]);
      });
    expect(await outboxOf(tenant.accountId)).toHaveLength(1);
  });

  it('leases each due push to one dispatcher; an expired lease makes it due again', async () => {
    const tenant = await createTenant(env.services);
    await endpoint(tenant.accountId, ',email.delivered,');
    const messageId = await leasedMessage(tenant.accountId, 'w1');
    await env.recordAttempts([record(messageId, tenant.accountId, 'w1', ['email.delivered'])]);
    const outbox = new WebhookOutboxRepo(db(), env.services.db.dialect);
    const [a, b] = await Promise.all([
      outbox.claimDue('d1', 2000, 3000, 100, CAPS),
      outbox.claimDue('d2', 2000, 3000, 100, CAPS),
    ]);
    const mine = [...a!, ...b!].filter((r) => r.account_id === tenant.accountId);
    expect(mine).toHaveLength(1);
    const winner = mine[0]!.lease_owner!;
    expect(
      (await outbox.claimDue('d3', 2500, 3500, 100, CAPS)).filter((r) => r.account_id === tenant.accountId),
    ).toEqual([]);
    // A record by someone without the lease does not apply.
    const base = {
      outboxId: mine[0]!.id,
      status: 'delivered' as const,
      nextAttemptAt: null,
      attempts: 1,
      attempt: undefined,
    };
    expect(await outbox.recordMany([{ ...base, owner: 'not-me' }])).toEqual([false]);
    // The lease expires: another dispatcher gets it.
    const again = (await outbox.claimDue('d4', 3000, 4000, 100, CAPS)).filter(
      (r) => r.account_id === tenant.accountId,
    );
    expect(again.map((r) => r.lease_owner)).toEqual(['d4']);
    expect(await outbox.recordMany([{ ...base, owner: winner }])).toEqual([false]);
    expect(await outbox.recordMany([{ ...base, owner: 'd4' }])).toEqual([true]);
    expect((await outboxOf(tenant.accountId))[0]).toMatchObject({
      status: 'delivered',
      next_attempt_at: null,
      attempts: 1,
    });
  });
  it('keeps a replay queued while the first push of the same event is still in flight', async () => {
    const tenant = await createTenant(env.services);
    const w = await endpoint(tenant.accountId, ',email.delivered,');
    const messageId = await leasedMessage(tenant.accountId, 'w1');
    const r = record(messageId, tenant.accountId, 'w1', ['email.delivered']);
    await env.recordAttempts([r]);
    const outbox = new WebhookOutboxRepo(db(), env.services.db.dialect);
    const [first] = (await outbox.claimDue('d1', 2000, 60_000, 100, CAPS)).filter(
      (row) => row.account_id === tenant.accountId,
    );
    await outbox.replay(
      [{ webhookId: w.id, accountId: tenant.accountId, eventId: r.events[0]!.id, replayId: newId() }],
      2100,
      1000,
    );
    // The first push finishes after the replay was asked for.
    const done = {
      outboxId: first!.id,
      owner: 'd1',
      status: 'delivered' as const,
      nextAttemptAt: null,
      attempts: 1,
      attempt: undefined,
    };
    expect(await outbox.recordMany([done])).toEqual([true]);
    const due = (await outbox.claimDue('d2', 2200, 60_000, 100, CAPS)).filter(
      (row) => row.account_id === tenant.accountId,
    );
    expect(due.map((row) => row.event_id)).toEqual([r.events[0]!.id]);
    expect(due[0]!.id).not.toBe(first!.id);
  });
});
