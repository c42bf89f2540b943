// The worker's record against the receiver's, on SQLite (prepared statements) and PostgreSQL (Kysely):
// a bounce or complaint recorded while a worker still holds the message's lease is never overwritten by
// the worker's "delivered" or "deferred"; the attempt itself is still logged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundEffect } from '../src/db/inbound-repo.js';
import type { AttemptRecord } from '../src/db/queue-repo.js';
import type { DeliveryAttemptRow, MessageStatus } from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, type Tenant, type TestEnv } from './helpers/services.js';
import { messageRow } from './helpers/message-row.js';

describe.each(databaseKinds)("the worker's record on $name", (kind) => {
  let env: TestEnv;
  let tenant: Tenant;
  beforeAll(async () => {
    env = await startTestEnv(kind);
    tenant = await createTenant(env.services, { domain: 'acme.example' });
    // Every event type pushed, so a push for an event that should not exist would show.
    await db()
      .insertInto('webhooks')
      .values({
        id: newId(),
        account_id: tenant.accountId,
        url: 'https://hooks.example.com/',
        description: '',
        event_types: ',email.delivered,email.bounced,email.complained,email.delivery_delayed,email.failed,',
        enabled: 1,
        disabled_reason: null,
        secret: 'sealed',
        previous_secret: null,
        previous_secret_until: null,
        created_at: 1,
        updated_at: 1,
      })
      .execute();
  });
  afterAll(async () => {
    await env.close();
  });

  const db = () => env.services.db.kysely;
  const queue = () => env.services.repos.queue;
  const now = Date.now();

  /** A message claimed by worker `owner`, as it is while that worker delivers it. */
  const claimed = async (status: MessageStatus, owner: string) => {
    const id = newId();
    const row = messageRow(tenant.accountId, {
      id,
      status,
      to_email: `${id}@dest.example`,
      created_at: now,
      updated_at: now,
      attempts: status === 'queued' ? 0 : 1,
      next_attempt_at: now,
      lease_owner: owner,
      lease_expires_at: now + 600_000,
    });
    await db().insertInto('messages').values(row).execute();
    return id;
  };

  /** The receiver's transaction for one stored report (inbound-repo.ts complete()). */
  const receive = async (messageId: string, status: 'bounced' | 'complained') => {
    const inboundId = newId();
    await env.storeInbound({
      id: inboundId,
      received_at: now,
      remote_ip: '127.0.0.1',
      helo: 'mx.dest.example',
      mail_from: '',
      rcpt_to: '[]',
      size: 1,
      raw: '',
      status: 'pending',
      attempts: 0,
      lease_expires_at: now + 60_000,
      processed_at: null,
      outcome: null,
    });
    const effect: InboundEffect = {
      messageId,
      accountId: tenant.accountId,
      event: {
        id: newId(),
        type: status === 'bounced' ? 'email.bounced' : 'email.complained',
        data: {},
      },
      status,
      suppression: undefined,
    };
    expect(await env.completeInbound(inboundId, {}, [effect], now + 1)).toBe(true);
  };

  /** What the worker records for an attempt with `result`. */
  const record = (
    messageId: string,
    owner: string,
    result: 'delivered' | 'deferred',
  ): AttemptRecord & { attempt: DeliveryAttemptRow } => ({
    messageId,
    accountId: tenant.accountId,
    owner,
    status: result,
    nextAttemptAt: result === 'deferred' ? now + 300_000 : null,
    counted: true,
    attempt: {
      id: newId(),
      message_id: messageId,
      account_id: tenant.accountId,
      started_at: now,
      duration_ms: 5,
      outcome: result,
      remote_host: 'mx.dest.example',
      remote_ip: '127.0.0.1',
      tls: 1,
      smtp_code: result === 'delivered' ? 250 : 451,
      enhanced_code: result === 'delivered' ? '2.0.0' : '4.3.0',
      reply: result === 'delivered' ? '250 2.0.0 queued' : '451 4.3.0 try again',
      source_ip: null,
      tls_version: 'TLSv1.3',
      tls_cipher: 'TLS_AES_256_GCM_SHA384',
      tls_certificate: 'invalid',
      tls_certificate_error: 'certificate has expired',
      tls_policy: 'opportunistic',
      tls_fallback: 0,
    },
    events: [
      {
        id: newId(),
        type: result === 'delivered' ? 'email.delivered' : 'email.delivery_delayed',
        data: {},
      },
    ],
    now: now + 2,
  });

  const message = (id: string) =>
    db().selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst();
  const eventTypes = async (id: string) => (await env.events(tenant.accountId, id)).map((e) => e.type);
  const attempts = (id: string) => env.attempts(tenant.accountId, id);
  const pushedTypes = async (id: string) =>
    (
      await db()
        .selectFrom('webhook_outbox')
        .innerJoin('events', 'events.id', 'webhook_outbox.event_id')
        .select('events.type')
        .where('events.message_id', '=', id)
        .execute()
    ).map((r) => r.type);

  it('keeps a bounce recorded while the worker held the message; its "delivered" adds the attempt only', async () => {
    const id = await claimed('queued', 'w1');
    await receive(id, 'bounced');
    const r = record(id, 'w1', 'delivered');
    expect(await queue().recordMany([r])).toEqual(['superseded']);

    expect(await message(id)).toMatchObject({
      status: 'bounced',
      next_attempt_at: null,
      lease_owner: null,
      lease_expires_at: null,
      attempts: 1,
      updated_at: now + 2,
    });
    // The attempt is in the log; no "delivered" event, and so no push, follows the bounce.
    expect(await attempts(id)).toEqual([expect.objectContaining({ id: r.attempt.id, smtp_code: 250 })]);
    expect(await eventTypes(id)).toEqual(['email.bounced']);
    expect(await pushedTypes(id)).toEqual(['email.bounced']);
  });

  it('keeps a complaint and takes the message out of the queue when the worker records a deferral', async () => {
    const id = await claimed('deferred', 'w1');
    await receive(id, 'complained');
    expect(await queue().recordMany([record(id, 'w1', 'deferred')])).toEqual(['superseded']);

    expect(await message(id)).toMatchObject({
      status: 'complained',
      next_attempt_at: null,
      lease_owner: null,
      attempts: 2,
    });
    expect(await eventTypes(id)).toEqual(['email.complained']);
    expect(await attempts(id)).toHaveLength(1);
    // Never due again: no worker sends it another time.
    const due = await queue().claimDue('w2', now + 3_600_000, now + 3_700_000, 1000);
    expect(due.map((m) => m.id)).not.toContain(id);
  });

  it('moves a message nobody else touched, then lets a later bounce follow "delivered"', async () => {
    const id = await claimed('queued', 'w1');
    const r = record(id, 'w1', 'delivered');
    expect(await queue().recordMany([r])).toEqual(['applied']);
    expect(await message(id)).toMatchObject({ status: 'delivered', lease_owner: null });
    // The attempt row as the worker made it, every column (the TLS details too) on both writers.
    expect(await attempts(id)).toEqual([r.attempt]);
    await receive(id, 'bounced');
    expect(await message(id)).toMatchObject({ status: 'bounced' });
    expect(await eventTypes(id)).toEqual(['email.bounced', 'email.delivered']);
  });

  it('stores nothing of a record whose lease was lost, also for a message the receiver moved', async () => {
    const kept = await claimed('queued', 'w2');
    const bounced = await claimed('queued', 'w2');
    await receive(bounced, 'bounced');
    expect(
      await queue().recordMany([record(kept, 'w1', 'delivered'), record(bounced, 'w1', 'delivered')]),
    ).toEqual(['lease_lost', 'lease_lost']);
    expect(await message(kept)).toMatchObject({ status: 'queued', lease_owner: 'w2', attempts: 0 });
    expect(await message(bounced)).toMatchObject({ status: 'bounced', lease_owner: 'w2' });
    expect(await attempts(kept)).toEqual([]);
    expect(await attempts(bounced)).toEqual([]);
  });

  it('applies each record of one batch on its own', async () => {
    const bounced = await claimed('queued', 'w1');
    const plain = await claimed('queued', 'w1');
    await receive(bounced, 'bounced');
    expect(
      await queue().recordMany([record(bounced, 'w1', 'delivered'), record(plain, 'w1', 'delivered')]),
    ).toEqual(['superseded', 'applied']);
    expect((await message(bounced))!.status).toBe('bounced');
    expect((await message(plain))!.status).toBe('delivered');
    expect(await pushedTypes(plain)).toEqual(['email.delivered']);
  });
});
