// The SQLite accept thread (accept/sqlite-thread.ts), as `txmail api` runs it on a database file: the
// same promises as on the event loop — every 2xx stored, the cap exact, suppressions committed by
// another connection seen, a database error answered 503 with nothing acknowledged. The thread runs
// from source too (start-thread.ts).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AcceptThread, commitRequests, type AcceptThreadRequest } from '../src/accept/sqlite-thread.js';
import { acceptItem } from './helpers/accept-item.js';
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
  /** Each of the tenant's messages (not a quota warning email) with each of its events. */
  const storedFor = async (tenant: Tenant) => {
    const mine = (await env.messagesOf(tenant.accountId)).filter((m) => m.subject === validSend.subject);
    const events = await Promise.all(mine.map((m) => env.events(tenant.accountId, m.id)));
    return mine.flatMap((m, i) => events[i]!.map((e) => ({ id: m.id, type: e.type })));
  };
  const usage = async (tenant: Tenant) => (await env.usage(tenant.accountId))[0]?.sent;

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
    await env.setMonthUsage(tenant.accountId, new Date().toISOString().slice(0, 7), 990);
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

describe('the accept thread merging batches', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv(sqlite);
  });
  afterAll(() => env.close());

  it('fails only the batch that cannot be written when batches are posted together', async () => {
    const tenant = await createTenant(env.services, { domain: 'acme.example' });
    const writer = new AcceptThread(env.database.url.slice('sqlite:'.length));
    try {
      const existing = acceptItem(tenant.accountId);
      expect(await writer.persist([existing])).toEqual([{ kind: 'accepted' }]);
      const good = Array.from({ length: 6 }, () => [acceptItem(tenant.accountId)]);
      const bad = [acceptItem(tenant.accountId), acceptItem(tenant.accountId, existing.message.id)];
      // Posted together, so the thread may take several in one transaction (see the test below).
      const results = await Promise.allSettled([...good, bad].map((batch) => writer.persist(batch)));
      expect(results.map((r) => r.status)).toEqual([...good.map(() => 'fulfilled'), 'rejected']);
      const stored = await env.messagesOf(tenant.accountId);
      expect(stored).toHaveLength(1 + good.length); // the bad batch's valid first item was rolled back
    } finally {
      await writer.close();
    }
  });
});

describe('an accept thread that cannot open its database', () => {
  it('fails the batches handed to it, and tries a new thread for the next', async () => {
    const writer = new AcceptThread('/nonexistent-directory/txmail.db');
    try {
      await expect(writer.persist([acceptItem('acct')])).rejects.toThrow(/unable to open|directory/i);
      await expect(writer.persist([acceptItem('acct')])).rejects.toThrow(/unable to open|directory/i);
    } finally {
      await writer.close();
    }
  });
});

describe('committing the batches the thread finds waiting', () => {
  const req = (id: number, n: number): AcceptThreadRequest => ({
    id,
    items: Array.from({ length: n }, () => acceptItem('acct')),
  });

  it('writes them in one transaction and answers each with its own outcomes', async () => {
    const calls: number[] = [];
    const replies = await commitRequests(
      (items) => {
        calls.push(items.length);
        return items.map((i) => (i.message.to_domain ? { kind: 'accepted' } : { kind: 'quota_exceeded' }));
      },
      [req(1, 2), req(2, 1), req(3, 3)],
    );
    expect(calls).toEqual([6]);
    expect(replies.map((r) => [r.id, 'outcomes' in r ? r.outcomes.length : -1])).toEqual([
      [1, 2],
      [2, 1],
      [3, 3],
    ]);
  });

  it('retries each on its own when the merged transaction fails, failing only the culprit', async () => {
    const bad = req(2, 1);
    const calls: number[] = [];
    const replies = await commitRequests(
      (items) => {
        calls.push(items.length);
        if (items.includes(bad.items[0]!))
          throw Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT' });
        return items.map(() => ({ kind: 'accepted' }));
      },
      [req(1, 2), bad, req(3, 1)],
    );
    expect(calls).toEqual([4, 2, 1, 1]);
    expect(replies).toEqual([
      { id: 1, outcomes: [{ kind: 'accepted' }, { kind: 'accepted' }] },
      { id: 2, error: { message: 'UNIQUE constraint failed', code: 'SQLITE_CONSTRAINT' } },
      { id: 3, outcomes: [{ kind: 'accepted' }] },
    ]);
  });
});
