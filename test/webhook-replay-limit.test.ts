// The cap on an endpoint's pending replays, on SQLite and PostgreSQL: the 1,001st pending replay of an
// endpoint is refused with 429 replay_limit_exceeded, exactly, also when replays arrive at once; what is
// counted is what is still pending (queued, in flight or waiting for a retry) and only replays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookOutboxRow } from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, type Tenant, type TestEnv } from './helpers/services.js';
import { dueTimes, queuePushes } from './helpers/webhook-pushes.js';

describe.each(databaseKinds)('webhook replay limit on $name', (kind) => {
  let env: TestEnv;
  beforeAll(async () => {
    // No dispatcher runs: every replay stays pending.
    env = await startTestEnv(kind, { env: { TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true' } });
  });
  afterAll(async () => {
    await env.close();
  });

  const db = () => env.services.db.kysely;
  const call = (t: Tenant, url: string, payload?: object) =>
    env.app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': t.apiKey },
      ...(payload ? { payload } : {}),
    });
  const endpoint = async (t: Tenant) => {
    const res = await call(t, '/api/webhooks', { url: 'http://127.0.0.1:9/hook' });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: string }).id;
  };
  const pendingReplays = async (webhookId: string) =>
    Number(
      (
        await db()
          .selectFrom('webhook_outbox')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('webhook_id', '=', webhookId)
          .where('replay', '=', 1)
          .where('next_attempt_at', 'is not', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** `n` pending replays of the event to the endpoint, written at once. */
  const seedReplays = async (t: Tenant, webhookId: string, eventId: string, n: number) => {
    const rows: WebhookOutboxRow[] = Array.from({ length: n }, () => ({
      id: `${eventId}:${webhookId}:${newId()}`,
      webhook_id: webhookId,
      event_id: eventId,
      account_id: t.accountId,
      status: 'pending',
      attempts: 0,
      created_at: 1,
      next_attempt_at: 1,
      lease_owner: null,
      lease_expires_at: null,
      replay: 1,
    }));
    await db().insertInto('webhook_outbox').values(rows).execute();
    return rows;
  };

  it('answers the 1,001st pending replay of an endpoint with 429 replay_limit_exceeded, exactly, even when replays come at once', async () => {
    const tenant = await createTenant(env.services);
    const full = await endpoint(tenant);
    const other = await endpoint(tenant);
    // 1,000 events, each with its ordinary push pending at both endpoints: those are not replays.
    const events = await queuePushes(db(), tenant.accountId, dueTimes(Date.now(), 1000));
    const eventId = events[0]!;
    const seeded = await seedReplays(tenant, full, eventId, 990);

    const answers = await Promise.all(
      Array.from({ length: 11 }, () => call(tenant, `/api/webhooks/${full}/replay`, { event_id: eventId })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([...Array(10).fill(202), 429]);
    const refused = answers.find((r) => r.statusCode === 429)!;
    expect(refused.body).toBe(
      `replay_limit_exceeded: webhook ${full} already has 1,000 replays waiting to be sent, the most one ` +
        'endpoint may have; replay more once some of them have been delivered',
    );
    expect(await pendingReplays(full)).toBe(1000);

    // The other endpoint has its own count.
    expect((await call(tenant, `/api/webhooks/${other}/replay`, { event_id: eventId })).statusCode).toBe(202);
    // Replaying to every subscribed endpoint is all or nothing: the full one refuses it for both.
    const all = await call(tenant, `/api/events/${eventId}/replay`);
    expect(all.statusCode).toBe(429);
    expect(all.body).toMatch(/^replay_limit_exceeded: webhook /);
    expect(await pendingReplays(other)).toBe(1);

    // A replay that reached its end (delivered, failed or skipped) no longer counts.
    await db()
      .updateTable('webhook_outbox')
      .set({ status: 'delivered', next_attempt_at: null })
      .where('id', '=', seeded[0]!.id)
      .execute();
    expect((await call(tenant, `/api/webhooks/${full}/replay`, { event_id: eventId })).statusCode).toBe(202);
    expect((await call(tenant, `/api/webhooks/${full}/replay`, { event_id: eventId })).statusCode).toBe(429);
    // One in flight (leased to a dispatcher) or waiting for a retry still counts.
    await db()
      .updateTable('webhook_outbox')
      .set({ lease_owner: 'd', lease_expires_at: Date.now() + 60_000 })
      .where('id', '=', seeded[1]!.id)
      .execute();
    await db()
      .updateTable('webhook_outbox')
      .set({ attempts: 1, next_attempt_at: Date.now() + 300_000 })
      .where('id', '=', seeded[2]!.id)
      .execute();
    expect((await call(tenant, `/api/webhooks/${full}/replay`, { event_id: eventId })).statusCode).toBe(429);
  });

  it('refuses past the number TXMAIL_WEBHOOK_MAX_PENDING_REPLAYS sets', async () => {
    const small = await startTestEnv(kind, {
      env: { TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true', TXMAIL_WEBHOOK_MAX_PENDING_REPLAYS: '2' },
    });
    try {
      const tenant = await createTenant(small.services);
      const created = await small.app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: { 'x-api-key': tenant.apiKey },
        payload: { url: 'http://127.0.0.1:9/hook' },
      });
      const webhookId = (created.json() as { id: string }).id;
      const [eventId] = await small.queuePushes(tenant.accountId, [Date.now()]);
      const replay = () =>
        small.app.inject({
          method: 'POST',
          url: `/api/webhooks/${webhookId}/replay`,
          headers: { 'x-api-key': tenant.apiKey },
          payload: { event_id: eventId },
        });
      expect((await replay()).statusCode).toBe(202);
      expect((await replay()).statusCode).toBe(202);
      const refused = await replay();
      expect(refused.statusCode).toBe(429);
      expect(refused.body).toContain('already has 2 replays waiting to be sent');
    } finally {
      await small.close();
    }
  });
});
