// Content retention (docs/design.md §9): a message's HTML and raw bytes are removed the account's
// content_retention_days after it became final (default 30, null keeps them), in batches, while the
// message, its events and attempts stay; PATCH /api/account sets it.
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { RetentionSweeper } from '../src/retention/retention-sweeper.js';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

const DAY = 24 * 3_600_000;

describe.each(databaseKinds)('content retention on $name', (kind) => {
  let env: TestEnv;
  const clock = new ManualClock(Date.UTC(2026, 10, 20, 12, 0, 0));

  beforeEach(async () => {
    clock.set(Date.UTC(2026, 10, 20, 12, 0, 0));
    env = await startTestEnv(kind, { clock });
  });
  afterEach(async () => env.close());

  const call = (t: Tenant, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    env.app.inject({
      method,
      url,
      headers: { 'x-api-key': t.apiKey },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  /** A message final `ageDays` ago (delivered, its bytes kept), or still queued. */
  const message = async (t: Tenant, ageDays: number, final = true) => {
    const res = await call(t, 'POST', '/api/email/send', { ...validSend, subject: `code ${ageDays}` });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { id: string }).id;
    const at = clock.now() - ageDays * DAY;
    await env.keepRaw(t.accountId, id, Buffer.from('Subject: x\r\n\r\nsecret 123456\r\n'), at);
    if (final) {
      await env.services.db.kysely
        .updateTable('messages')
        .set({ status: 'delivered', next_attempt_at: null, updated_at: at })
        .where('id', '=', id)
        .execute();
    }
    return id;
  };
  const sweeper = (batchSize = 500) =>
    new RetentionSweeper(env.services.repos.retention, clock, pino({ level: 'silent' }), {
      intervalMs: 60_000,
      batchSize,
      pauseMs: 0,
    });
  const detail = async (t: Tenant, id: string) =>
    (await call(t, 'GET', `/api/emails/${id}`)).json() as {
      message: string;
      raw_bytes: number | null;
      content_retention_days: number | null;
      content_removed_at: string | null;
      content_removes_at: string | null;
      events: unknown[];
    };

  it('removes the content 30 days after the final state by default, in batches, and keeps the rest', async () => {
    const t = await createTenant(env.services, { domain: 'acme.example' });
    expect(
      ((await call(t, 'GET', '/api/account')).json() as { content_retention_days: number })
        .content_retention_days,
    ).toBe(30);
    const old = [await message(t, 31), await message(t, 30.01), await message(t, 40)];
    const young = await message(t, 29.99);
    const queued = await message(t, 60, false);
    const before = await detail(t, young);
    expect(before.content_removes_at).toBe(new Date(clock.now() + 0.01 * DAY).toISOString());

    expect(await sweeper(2).sweep()).toBe(3);
    for (const id of old) {
      const d = await detail(t, id);
      expect(d.message).toBe('');
      expect(d.raw_bytes).toBeNull();
      expect(d.content_removed_at).toBe(new Date(clock.now()).toISOString());
      expect(d.content_removes_at).toBeNull();
      expect(d.events.length).toBeGreaterThan(0);
      const raw = await call(t, 'GET', `/api/emails/${id}/raw`);
      expect(raw.statusCode).toBe(404);
      expect(raw.body).toMatch(/^not_found: the content of email .* was removed at /);
    }
    for (const id of [young, queued]) {
      expect((await detail(t, id)).message).toBe(validSend.message);
      expect((await call(t, 'GET', `/api/emails/${id}/raw`)).statusCode).toBe(200);
    }
    expect(await sweeper().sweep()).toBe(0);
    // The message itself is still in the log.
    const log = (await call(t, 'GET', '/api/emails')).json() as { data: { id: string }[] };
    expect(log.data).toHaveLength(5);
  });

  it('follows the account setting: fewer days, or null to keep content', async () => {
    const short = await createTenant(env.services, { domain: 'acme.example' });
    const keep = await createTenant(env.services, { domain: 'acme.example' });
    const res = await call(short, 'PATCH', '/api/account', { content_retention_days: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { content_retention_days: number }).content_retention_days).toBe(1);
    expect((await call(keep, 'PATCH', '/api/account', { content_retention_days: null })).statusCode).toBe(
      200,
    );
    const s = await message(short, 2);
    const k = await message(keep, 400);
    expect(await sweeper().sweep()).toBe(1);
    expect((await detail(short, s)).message).toBe('');
    const kept = await detail(keep, k);
    expect(kept.message).toBe(validSend.message);
    expect(kept.content_retention_days).toBeNull();
    expect(kept.content_removes_at).toBeNull();
  });

  it('refuses a bad setting', async () => {
    const t = await createTenant(env.services);
    for (const body of [
      { content_retention_days: 0 },
      { content_retention_days: 3651 },
      { content_retention_days: 1.5 },
      { content_retention_days: '30' },
      {},
      { content_retention_days: 30, plan: 'scale' },
    ]) {
      const res = await call(t, 'PATCH', '/api/account', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});
