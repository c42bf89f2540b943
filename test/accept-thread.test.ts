// The SQLite accept thread (db/accept-writer-thread.ts), as `txmail api` runs it on a database file: the
// same promises as on the event loop — every 2xx stored, the cap exact, suppressions committed by
// another connection seen, a database error answered 503 with nothing acknowledged. Runs the compiled
// thread (npm test builds first).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;

describe('accepting on the SQLite accept thread', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv(sqlite, { acceptThread: true });
  });
  afterAll(() => env.close());

  const send = (tenant: Tenant, payload: object = validSend, headers: Record<string, string> = {}) =>
    env.app.inject({
      method: 'POST',
      url: '/api/email/send',
      headers: { 'x-api-key': tenant.apiKey, ...headers },
      payload,
    });
  const storedFor = async (tenant: Tenant) =>
    env.services.db.kysely
      .selectFrom('messages')
      .innerJoin('events', 'events.message_id', 'messages.id')
      .select(['messages.id', 'events.type'])
      .where('messages.account_id', '=', tenant.accountId)
      .execute();
  const usage = async (tenant: Tenant) =>
    (
      await env.services.db.kysely
        .selectFrom('usage')
        .select('sent')
        .where('account_id', '=', tenant.accountId)
        .executeTakeFirst()
    )?.sent;

  it('stores every message it acknowledges, with its first event and its count', async () => {
    const tenant = await createTenant(env.services, { domain: 'acme.example' });
    const replies = await Promise.all(Array.from({ length: 300 }, () => send(tenant)));
    expect(replies.map((r) => r.statusCode)).toEqual(replies.map(() => 200));
    const ids = replies.map((r) => (r.json() as { id: string }).id);
    expect(new Set(ids).size).toBe(300);
    const stored = await storedFor(tenant);
    expect(new Set(stored.map((s) => s.id))).toEqual(new Set(ids));
    expect(stored.every((s) => s.type === 'email.queued')).toBe(true);
    expect(await usage(tenant)).toBe(300);
  });

  it('accepts exactly up to the monthly cap under concurrency', async () => {
    const tenant = await createTenant(env.services, { plan: 'free', domain: 'acme.example' });
    await env.services.db.kysely
      .insertInto('usage')
      .values({ account_id: tenant.accountId, month: new Date().toISOString().slice(0, 7), sent: 990 })
      .execute();
    const replies = await Promise.all(Array.from({ length: 30 }, () => send(tenant)));
    const codes = replies.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(20);
    expect(await storedFor(tenant)).toHaveLength(10);
    expect(await usage(tenant)).toBe(1000);
  });

  it('refuses a recipient suppressed a moment ago through the other connection', async () => {
    const tenant = await createTenant(env.services, { domain: 'acme.example' });
    expect((await send(tenant)).statusCode).toBe(200);
    await env.services.suppressions.add(tenant.accountId, { address: 'JANE@recipient.example' });
    const refused = await send(tenant);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/^recipient_suppressed: jane@recipient\.example is suppressed since /);
    expect(await storedFor(tenant)).toHaveLength(1);
    expect(await usage(tenant)).toBe(1);
  });

  it('answers a repeated Idempotency-Key with the first answer', async () => {
    const tenant = await createTenant(env.services, { domain: 'acme.example' });
    const first = await send(tenant, validSend, { 'idempotency-key': 'order-1' });
    const again = await send(tenant, validSend, { 'idempotency-key': 'order-1' });
    expect(first.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await storedFor(tenant)).toHaveLength(1);
  });

  it('answers 503 and acknowledges nothing when the thread cannot write, then accepts again', async () => {
    const tenant = await createTenant(env.services, { domain: 'acme.example' });
    await sql`create trigger refuse_all before insert on messages
              begin select raise(abort, 'database or disk is full'); end`.execute(env.services.db.kysely);
    try {
      const replies = await Promise.all(Array.from({ length: 5 }, () => send(tenant)));
      for (const r of replies) {
        expect(r.statusCode).toBe(503);
        expect(r.body).toMatch(/^service_unavailable: /);
      }
      expect(await storedFor(tenant)).toHaveLength(0);
      // The refused sends were rolled back with their transaction: nothing counted.
      expect(await usage(tenant)).toBeUndefined();
    } finally {
      await sql`drop trigger refuse_all`.execute(env.services.db.kysely);
    }
    expect((await send(tenant)).statusCode).toBe(200);
    expect(await storedFor(tenant)).toHaveLength(1);
  });
});
