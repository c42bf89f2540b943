// Content retention (docs/design.md §9): a message's HTML and raw bytes are removed the account's
// content_retention_days after it became final (default 30, null keeps them), in batches, while the
// message, its events and attempts stay; PATCH /api/account sets it. After the upgrade that began it,
// the content of messages final before the upgrade is kept a week more (docs/upgrading.md).
import { existsSync, readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { migrate, migratorFor, openDatabase, type Db } from '../src/db/database.js';
import { RetentionRepo } from '../src/db/retention-repo.js';
import { newId } from '../src/ids.js';
import { CONTENT_GRACE_DAYS } from '../src/retention/content-grace.js';
import { RetentionSweeper } from '../src/retention/retention-sweeper.js';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';

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
      await env.updateMessage(id, { status: 'delivered', next_attempt_at: null, updated_at: at });
    }
    return id;
  };
  /** Asks for a password reset of the tenant's address: the id of its mail, once listed as sealed. */
  const sealedReset = async (t: Tenant): Promise<string> => {
    const asked = await env.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: t.email },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    return until('the reset mail listed as sealed', async () => {
      const ids = await env.sealedMessageIds();
      return ids.length === 1 ? ids[0] : undefined;
    });
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
  it('keeps the content of messages final before the upgrade a week after it, and follows the setting for the rest', async () => {
    // Content retention began (migration 032's mark) now; the account keeps content a day.
    const upgrade = clock.now();
    await env.services.db.kysely
      .insertInto('upgrade_marks')
      .values({ name: 'content_retention', at: upgrade })
      .execute();
    const t = await createTenant(env.services, { domain: 'acme.example' });
    const old = await message(t, 40);
    const reset = await message(t, 0.5);
    expect((await call(t, 'PATCH', '/api/account', { content_retention_days: 1 })).statusCode).toBe(200);
    const graceEnd = upgrade + CONTENT_GRACE_DAYS * DAY;
    clock.advance(2 * DAY);
    const since = await message(t, 1.5);
    // The API says when each goes: the old one when the grace ends, not a day after it was final.
    expect((await detail(t, old)).content_removes_at).toBe(new Date(graceEnd).toISOString());
    expect((await detail(t, reset)).content_removes_at).toBe(new Date(graceEnd).toISOString());
    expect((await detail(t, since)).content_removes_at).toBe(new Date(upgrade + 1.5 * DAY).toISOString());

    // During the grace: only what became final since the upgrade goes.
    expect(await sweeper().sweep()).toBe(1);
    expect((await detail(t, since)).message).toBe('');
    clock.set(graceEnd - 1);
    expect(await sweeper().sweep()).toBe(0);
    for (const id of [old, reset]) expect((await detail(t, id)).message).toBe(validSend.message);
    // Once it ends, the setting applies to every message.
    clock.set(graceEnd);
    expect(await sweeper().sweep()).toBe(2);
    for (const id of [old, reset]) {
      const d = await detail(t, id);
      expect(d.message).toBe('');
      expect(d.raw_bytes).toBeNull();
    }
  });

  it('removes the content of mail carrying a sign-in link as soon as it is final, whatever the account keeps', async () => {
    const t = await createTenant(env.services, { domain: 'acme.example' });
    expect((await call(t, 'PATCH', '/api/account', { content_retention_days: null })).statusCode).toBe(200);
    const kept = await message(t, 400);
    const listed = await sealedReset(t);
    /** The HTML, opened (it is stored sealed): '' once removed. */
    const html = async () => {
      const stored = (await env.storedBody(listed))?.html;
      return stored ? env.services.sealedHtml.open(stored) : stored;
    };
    expect(await html()).toMatch(/reset/i);
    // Queued (its next attempt ahead): the link is still to be sent.
    await env.updateMessage(listed, { next_attempt_at: clock.now() + DAY });
    await sweeper().sweep();
    expect(await html()).toMatch(/reset/i);
    // Out of the queue under a worker's lease (a bounce does that): not yet, the worker's record may
    // still keep the bytes it sent.
    await env.updateMessage(listed, {
      next_attempt_at: null,
      lease_owner: 'worker-1',
      lease_expires_at: clock.now() + 60_000,
    });
    await sweeper().sweep();
    expect(await html()).toMatch(/reset/i);
    // Sent: its HTML and kept bytes go at the next pass, and it leaves the list.
    await env.keepRaw(
      t.accountId,
      listed,
      Buffer.from('Subject: reset\r\n\r\nhttps://x/reset#token\r\n'),
      clock.now(),
    );
    // An auto-reply to it quoted the message, link and all: its report's text goes too, the rest stays.
    const report = newId();
    await env.addEvents([
      {
        id: report,
        account_id: t.accountId,
        message_id: listed,
        type: 'email.report_received',
        data: JSON.stringify({ kind: 'auto_reply', text: '> https://x/reset-password?token=quoted' }),
        created_at: clock.now(),
      },
    ]);
    await env.updateMessage(listed, {
      status: 'delivered',
      next_attempt_at: null,
      updated_at: clock.now(),
      lease_owner: null,
      lease_expires_at: null,
    });
    expect(await sweeper().sweep()).toBe(1);
    expect(await html()).toBe('');
    const reported = (await env.events(t.accountId, listed)).find((e) => e.id === report);
    expect(JSON.parse(reported!.data)).toEqual({ kind: 'auto_reply' });
    expect(await env.rawKept(listed)).toBe(false);
    expect(await env.sealedMessageIds()).toEqual([]);
    // The account's other mail keeps its content, as the account asked.
    expect((await detail(t, kept)).raw_bytes).not.toBeNull();
  });

  /** The stored HTML of a sealed message, and the reset link's token it opens to. */
  const sealedBody = async (id: string) => {
    const body = await env.storedBody(id);
    if (!body) throw new Error(`no body stored for ${id}`);
    const opened = env.services.sealedHtml.open(body.html);
    return { ...body, token: /reset-password\?token=([A-Za-z0-9_-]{20,})/.exec(opened)?.[1] };
  };

  it('stores the HTML of mail carrying a sign-in link sealed, so that no copy of the database holds the link', async () => {
    const t = await createTenant(env.services, { domain: 'acme.example' });
    const id = await sealedReset(t);
    const { html, sealed, token } = await sealedBody(id);
    expect(sealed).toBe(1);
    expect(token, 'the stored HTML opens to the reset link').toBeDefined();
    expect(html).not.toContain(token);
    expect(html).not.toMatch(/token=|reset-password/);
    // What the service's mail to the address reads, as mailed: the link whole.
    const mailed = (await env.mailTo(t.email)).find((m) => m.id === id);
    expect(mailed?.html).toContain(`reset-password?token=${token}`);
    // Another message's HTML is stored as sent.
    const other = await message(t, 0, false);
    expect(await env.storedBody(other)).toEqual({ html: validSend.message, sealed: 0 });
  });

  it.runIf(kind.name === 'sqlite')(
    "leaves no copy of a sealed message's link in the database's files once its content is removed",
    async () => {
      const t = await createTenant(env.services, { domain: 'acme.example' });
      const id = await sealedReset(t);
      const db = env.services.db.kysely;
      const { token } = await sealedBody(id);
      expect(token).toBeDefined();
      // The database's files as a copy of them would hold them: the file and its WAL.
      const path = env.services.db.sqlitePath!;
      const filesHold = () =>
        [path, `${path}-wal`].some((f) => existsSync(f) && readFileSync(f).includes(token!));
      // Sealed from its accept on (messages/sealed-html.ts).
      expect(filesHold()).toBe(false);
      // A message accepted before its HTML was sealed (migration 041), its bytes kept by an attempt (the
      // worker keeps none of a sealed message's): the sweep's removal is what takes them.
      await db
        .updateTable('message_bodies')
        .set({ html: env.services.sealedHtml.open((await sealedBody(id)).html), sealed: 0 })
        .where('message_id', '=', id)
        .execute();
      await env.keepRaw(
        t.accountId,
        id,
        Buffer.from(`Subject: reset\r\n\r\nhttps://x/reset-password?token=${token}\r\n`),
        clock.now(),
      );
      expect(filesHold()).toBe(true);
      await env.updateMessage(id, { status: 'delivered', next_attempt_at: null, updated_at: clock.now() });
      expect(await sweeper().sweep()).toBe(1);
      // Neither in the file's free space nor in the WAL's old frames (the checkpointer truncates it).
      await until('no copy of the link left in the files', async () => (filesHold() ? undefined : true));
    },
  );

  it('has no grace on a database made with content retention', async () => {
    expect(await env.services.repos.retention.contentRetentionSince()).toBeUndefined();
  });
});

describe.each(databaseKinds)('upgrading to content retention on $name', (kind) => {
  const sweeperOn = (db: Db, clock: ManualClock) =>
    new RetentionSweeper(new RetentionRepo(db.kysely), clock, pino({ level: 'silent' }), {
      intervalMs: 60_000,
      batchSize: 500,
      pauseMs: 0,
    });
  /** A database migrated to `to` holding an account and a message final 40 days before `now`. */
  const before = async (to: string, now: number) => {
    const database = await kind.create();
    const db = openDatabase(database.url);
    const migrated = await (await migratorFor(db)).migrateTo(to);
    expect(migrated.error).toBeUndefined();
    const k = db.kysely as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await k
      .insertInto('accounts')
      .values({
        id: 'a1',
        email: 'a@x.example',
        password_hash: null,
        plan: 'pro',
        state: 'production',
        suspended_at: null,
        created_at: 1,
        email_verified_at: 1,
      })
      .execute();
    const final = now - 40 * DAY;
    await k
      .insertInto('messages')
      .values({
        id: 'm1',
        account_id: 'a1',
        status: 'delivered',
        from_name: '',
        from_email: 'a@acme.example',
        from_domain: 'acme.example',
        to_name: '',
        to_email: 'b@dest.example',
        to_domain: 'dest.example',
        subject: 'Your code',
        html: 'code 123456',
        created_at: final,
        updated_at: final,
        attempts: 1,
        next_attempt_at: null,
        lease_owner: null,
        lease_expires_at: null,
        category: null,
      })
      .execute();
    return {
      db,
      // Read after the upgrade, which moved the HTML to message_bodies (migration 033).
      html: async () =>
        (
          await k
            .selectFrom('message_bodies')
            .select('html')
            .where('message_id', '=', 'm1')
            .executeTakeFirstOrThrow()
        ).html,
      since: async () => new RetentionRepo(db.kysely).contentRetentionSince(),
      close: async () => {
        await db.close();
        await database.drop();
      },
    };
  };

  it('keeps what an upgrade past migration 026 found for a week after it, then removes it', async () => {
    const upgrade = await before('025-dkim-rotation', Date.now());
    try {
      const t0 = Date.now();
      await migrate(upgrade.db);
      const t1 = Date.now();
      // Recorded in the database: the time migration 026 ran, as the migrator recorded it.
      const since = (await upgrade.since())!;
      expect(since).toBeGreaterThanOrEqual(t0);
      expect(since).toBeLessThanOrEqual(t1);
      const ran = await sql<{ timestamp: string }>`
        select timestamp from kysely_migration where name = '026-message-content'`.execute(upgrade.db.kysely);
      expect(since).toBe(Date.parse(ran.rows[0]!.timestamp));
      // Every account got 30 days; the message was final 40 days before the upgrade.
      const clock = new ManualClock(since + CONTENT_GRACE_DAYS * DAY - 1);
      expect(await sweeperOn(upgrade.db, clock).sweep()).toBe(0);
      expect(await upgrade.html()).toBe('code 123456');
      clock.set(since + CONTENT_GRACE_DAYS * DAY);
      expect(await sweeperOn(upgrade.db, clock).sweep()).toBe(1);
      expect(await upgrade.html()).toBe('');
    } finally {
      await upgrade.close();
    }
  });

  it('gives no new grace where migration 026 ran long before', async () => {
    const now = Date.now();
    const upgrade = await before('030-api-key-roles', now);
    try {
      // Applied 60 days ago, as the migrator records it (each migration's time, kept in order).
      const applied = await sql<{ name: string; timestamp: string }>`
        select name, timestamp from kysely_migration`.execute(upgrade.db.kysely);
      for (const { name, timestamp } of applied.rows) {
        const earlier = new Date(Date.parse(timestamp) - 60 * DAY).toISOString();
        await sql`update kysely_migration set timestamp = ${earlier} where name = ${name}`.execute(
          upgrade.db.kysely,
        );
      }
      const ran026 = applied.rows.find((r) => r.name === '026-message-content')!.timestamp;
      const long = Date.parse(ran026) - 60 * DAY;
      await upgrade.db.kysely
        .updateTable('messages')
        .set({ created_at: now - 61 * DAY })
        .execute();
      await migrate(upgrade.db);
      expect(await upgrade.since()).toBe(long);
      expect(await sweeperOn(upgrade.db, new ManualClock(now)).sweep()).toBe(1);
      expect(await upgrade.html()).toBe('');
    } finally {
      await upgrade.close();
    }
  });
});
