// The accounts' reputation state on SQLite and PostgreSQL: migration 020 (state columns; events about an
// account with no message, the existing events and pushes kept through SQLite's table rebuild), the
// guard's moves as conditional updates (two processes judging at once: one move, one notice, one event,
// one email), paused left only by resume (a fresh window, held mail due at once), the sweep that ends a
// warning, and the account events through the webhook outbox.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { migrate, migratorFor, openDatabase } from '../src/db/database.js';
import { addReputationCounts } from '../src/db/reputation-repo.js';
import { newId } from '../src/ids.js';
import { ReputationGuard } from '../src/reputation/guard.js';
import { NO_COUNTS, type ReputationDelta } from '../src/reputation/counts.js';
import { HOLD_MS } from '../src/reputation/thresholds.js';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, type TestEnv } from './helpers/services.js';
import { insertEndpoint } from './helpers/webhook-pushes.js';

const NOW = Date.UTC(2026, 10, 24, 12);
const TODAY = '2026-11-24';

describe.each(databaseKinds)('account reputation state on $name', (kind) => {
  let env: TestEnv;
  /**
   * A second judge: another process on PostgreSQL; on SQLite a second guard on the same connection (two
   * SQLite connections in one process would wait for each other's lock on one event loop).
   */
  let other: TestEnv | undefined;
  let secondGuard: ReputationGuard;
  const clock = new ManualClock(NOW);
  beforeAll(async () => {
    const options = { clock, env: { TXMAIL_REPUTATION: 'min_messages=20' } };
    env = await startTestEnv(kind, options);
    if (kind.name === 'postgres') {
      other = await startTestEnv(kind, { ...options, database: env.database });
      secondGuard = other.services.reputation;
    } else {
      const s = env.services;
      secondGuard = new ReputationGuard({
        counts: s.repos.reputation,
        states: s.repos.accountReputation,
        thresholds: s.config.reputation,
        mail: (accountId, subject, html) => s.systemMail.send(accountId, subject, html),
        publicUrl: s.config.publicUrl,
        clock,
        logger: s.logger,
      });
    }
  });
  afterAll(async () => {
    await other?.close();
    await env.close();
  });

  const db = () => env.services.db.kysely;
  const count = (accountId: string, counts: Partial<ReputationDelta>, day = TODAY, domain = 'acme.example') =>
    addReputationCounts(db(), [{ ...NO_COUNTS, accountId, day, domain, ...counts }]);
  const state = (accountId: string) => env.reputationState(accountId);
  const notices = (accountId: string) =>
    db()
      .selectFrom('account_notices')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
  const accountEvents = (accountId: string) =>
    db()
      .selectFrom('events')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('message_id', 'is', null)
      .execute();
  const systemMails = (accountId: string) =>
    db()
      .selectFrom('messages')
      .select(['subject', 'to_email', 'from_email'])
      .where('account_id', '=', accountId)
      .where('from_email', 'like', 'notifications@%')
      .execute();

  it('starts healthy', async () => {
    const t = await createTenant(env.services);
    expect(await state(t.accountId)).toEqual({ status: 'healthy', reason: null, changedAt: null });
  });

  it('pauses once when two processes judge at once: one notice, one event, one push, one email', async () => {
    const t = await createTenant(env.services, { plan: 'pro' });
    const hook = await insertEndpoint(db(), t.accountId, { url: 'https://hooks.example.com/' });
    await db()
      .updateTable('webhooks')
      .set({ event_types: ',account.paused,account.warning,' })
      .where('id', '=', hook.id)
      .execute();
    await count(t.accountId, { final: 20, badBounces: 3 });
    const moves = await Promise.all([
      env.services.reputation.judge(t.accountId),
      secondGuard.judge(t.accountId),
    ]);
    expect(moves.filter((m) => m !== undefined)).toEqual([
      {
        from: 'healthy',
        to: 'paused',
        reason: 'the bounce rate over the last 7 days is 15.0 % (3 of 20 messages), at or above 10.0 %',
        tellAccount: true,
      },
    ]);
    expect(await state(t.accountId)).toMatchObject({ status: 'paused', changedAt: NOW });
    expect((await notices(t.accountId)).map((n) => n.kind)).toEqual(['reputation_paused']);
    const events = await accountEvents(t.accountId);
    expect(events.map((e) => e.type)).toEqual(['account.paused']);
    const outbox = await db()
      .selectFrom('webhook_outbox')
      .selectAll()
      .where('event_id', '=', events[0]!.id)
      .execute();
    expect(outbox).toHaveLength(1);
    const [job] = await env.services.repos.webhookOutbox.jobs(outbox);
    expect(job?.message).toBeNull();
    expect(JSON.parse(job!.event.data)).toMatchObject({
      account_id: t.accountId,
      status: 'paused',
      bounce_rate: 0.15,
    });
    const mails = await systemMails(t.accountId);
    expect(mails).toEqual([
      {
        subject: 'txmail: sending from your account is paused',
        to_email: t.email,
        from_email: expect.any(String),
      },
    ]);
    // Judged again, later, with a clean window: still paused (only the operator lifts it).
    expect(await env.services.reputation.judge(t.accountId)).toBeUndefined();
    expect(await env.services.reputation.sweep()).toBe(0);
    expect((await state(t.accountId))?.status).toBe('paused');
    expect(await env.pausedAccounts()).toContain(t.accountId);
  });

  it('resume lifts a pause only: a fresh window, held mail due now (not later retries), a notice', async () => {
    const t = await createTenant(env.services);
    await count(t.accountId, { final: 20, badBounces: 2 });
    expect((await env.services.reputation.judge(t.accountId))?.to).toBe('paused');
    const held = newId();
    const retry = newId();
    const insert = (id: string, nextAttemptAt: number) =>
      db()
        .insertInto('messages')
        .values({
          id,
          account_id: t.accountId,
          status: 'queued',
          from_name: '',
          from_email: 'a@acme.example',
          from_domain: 'acme.example',
          to_name: '',
          to_email: 'x@dest.example',
          to_domain: 'dest.example',
          subject: 's',
          created_at: NOW,
          updated_at: NOW,
          attempts: 0,
          next_attempt_at: nextAttemptAt,
          lease_owner: null,
          lease_expires_at: null,
          category: null,
        })
        .execute();
    // Held by the pause (due within HOLD_MS), and an ordinary retry due later (a backoff the pause did
    // not set: it keeps its time).
    await insert(held, NOW + HOLD_MS);
    await insert(retry, NOW + 1000 + HOLD_MS + 60_000);
    clock.advance(1000);
    expect(await env.services.reputation.resume(t.accountId)).toBe(true);
    expect(await state(t.accountId)).toEqual({ status: 'healthy', reason: null, changedAt: NOW + 1000 });
    expect(await env.reputationWindow(t.accountId, '2026-11-01')).toEqual({
      messages: 0,
      bounced: 0,
      complained: 0,
    });
    const msg = await db()
      .selectFrom('messages')
      .select('next_attempt_at')
      .where('id', '=', held)
      .executeTakeFirst();
    expect(Number(msg?.next_attempt_at)).toBe(NOW + 1000);
    const later = await db()
      .selectFrom('messages')
      .select('next_attempt_at')
      .where('id', '=', retry)
      .executeTakeFirst();
    expect(Number(later?.next_attempt_at)).toBe(NOW + 1000 + HOLD_MS + 60_000);
    expect((await notices(t.accountId)).map((n) => n.kind)).toEqual([
      'reputation_paused',
      'reputation_resumed',
    ]);
    // Not paused any more: nothing to lift.
    expect(await env.services.reputation.resume(t.accountId)).toBe(false);
    clock.set(NOW);
  });

  it("records every move of the sending state in the account's audit log, once however many judge: the guard's as the system, the resume as the operator", async () => {
    const t = await createTenant(env.services);
    await count(t.accountId, { final: 20, badBounces: 1 });
    const warned = await Promise.all([
      env.services.reputation.judge(t.accountId),
      secondGuard.judge(t.accountId),
    ]);
    expect(warned.filter((m) => m !== undefined).map((m) => m!.to)).toEqual(['warning']);
    await count(t.accountId, { badBounces: 2 });
    expect((await env.services.reputation.judge(t.accountId))?.to).toBe('paused');
    expect(await env.services.reputation.resume(t.accountId)).toBe(true);
    // A fresh window: warned again, then clearly below the line, healthy by the guard.
    await count(t.accountId, { final: 20, badBounces: 1 });
    expect((await env.services.reputation.judge(t.accountId))?.to).toBe('warning');
    await count(t.accountId, { final: 80 });
    expect((await env.services.reputation.judge(t.accountId))?.to).toBe('healthy');
    // As GET /api/audit shows it (newest first) to the account's key.
    const res = await env.app.inject({
      method: 'GET',
      url: '/api/audit',
      headers: { 'x-api-key': t.apiKey },
    });
    expect(res.statusCode, res.body).toBe(200);
    const entries = (
      res.json() as { data: { actor: unknown; action: string; target: string; ip: unknown }[] }
    ).data;
    const guard = { type: 'system', id: 'reputation_guard', label: null };
    expect(entries.map(({ actor, action, target, ip }) => ({ actor, action, target, ip }))).toEqual([
      { actor: guard, action: 'account.reputation_changed', target: 'healthy', ip: null },
      { actor: guard, action: 'account.reputation_changed', target: 'warning', ip: null },
      {
        actor: { type: 'operator', id: null, label: null },
        action: 'account.reputation_changed',
        target: 'healthy',
        ip: null,
      },
      { actor: guard, action: 'account.reputation_changed', target: 'paused', ip: null },
      { actor: guard, action: 'account.reputation_changed', target: 'warning', ip: null },
    ]);
  });

  it('warns, and the sweep ends the warning once the bad days leave the window', async () => {
    const t = await createTenant(env.services);
    await count(t.accountId, { final: 20, badBounces: 1 }, '2026-11-20');
    expect(await env.services.reputation.sweep()).toBeGreaterThanOrEqual(1);
    expect(await state(t.accountId)).toMatchObject({ status: 'warning' });
    expect((await accountEvents(t.accountId)).map((e) => e.type)).toEqual(['account.warning']);
    expect((await systemMails(t.accountId)).map((m) => m.subject)).toEqual([
      'txmail: your bounce or complaint rate is high',
    ]);
    // Five days on, 2026-11-20 is out of the 7-day window: nothing left in it, yet the sweep judges it.
    clock.set(Date.UTC(2026, 10, 27, 12));
    expect(await env.reputationWindow(t.accountId, '2026-11-21')).toEqual({
      messages: 0,
      bounced: 0,
      complained: 0,
    });
    clock.set(Date.UTC(2026, 10, 29, 12));
    await env.services.reputation.sweep();
    expect(await state(t.accountId)).toMatchObject({ status: 'healthy', reason: null });
    // Back to healthy is not announced.
    expect(await accountEvents(t.accountId)).toHaveLength(1);
    clock.set(NOW);
  });

  it('a sweep judged before a pause and a resume does not apply after them (no second pause)', async () => {
    const t = await createTenant(env.services);
    await count(t.accountId, { final: 20, badBounces: 3 });
    const s = env.services;
    // A sweep whose window read is followed, before it moves anything, by a pause (another process's
    // judgement) and the operator's resume: the sweep holds the window from before the resume zeroed it.
    const sweeper = new ReputationGuard({
      counts: {
        window: (id, from) => s.repos.reputation.window(id, from),
        resetWindow: (id) => s.repos.reputation.resetWindow(id),
        windows: async (from) => {
          const windows = await s.repos.reputation.windows(from);
          expect((await s.reputation.judge(t.accountId))?.to).toBe('paused');
          clock.advance(1000);
          expect(await s.reputation.resume(t.accountId)).toBe(true);
          return windows;
        },
      },
      states: s.repos.accountReputation,
      thresholds: s.config.reputation,
      mail: (accountId, subject, html) => s.systemMail.send(accountId, subject, html),
      publicUrl: s.config.publicUrl,
      clock,
      logger: s.logger,
    });
    await sweeper.sweep();
    expect(await state(t.accountId)).toEqual({ status: 'healthy', reason: null, changedAt: NOW + 1000 });
    expect((await accountEvents(t.accountId)).map((e) => e.type)).toEqual(['account.paused']);
    expect((await systemMails(t.accountId)).map((m) => m.subject)).toEqual([
      'txmail: sending from your account is paused',
    ]);
    clock.set(NOW);
  });

  it('counts the accounts per status for /metrics', async () => {
    const counts = await env.reputationCounts();
    expect(counts.paused).toBeGreaterThanOrEqual(1);
    expect(counts.healthy).toBeGreaterThanOrEqual(1);
    const metrics = await env.services.metrics.registry.metrics();
    expect(metrics).toMatch(new RegExp(`txmail_reputation_accounts\\{status="paused"\\} ${counts.paused}`));
  });
});

describe.each(databaseKinds)('migration 020 on $name', (kind) => {
  it('keeps events and their pushes, and lets an event have no message', async () => {
    const database = await kind.create();
    const db = openDatabase(database.url);
    try {
      const migrator = await migratorFor(db);
      const to019 = await migrator.migrateTo('019-reputation-counts');
      expect(to019.error).toBeUndefined();
      const k = db.kysely as unknown as import('kysely').Kysely<Record<string, Record<string, unknown>>>;
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
          subject: 's',
          html: 'h',
          created_at: 1,
          updated_at: 1,
          attempts: 1,
          next_attempt_at: null,
          lease_owner: null,
          lease_expires_at: null,
          category: null,
        })
        .execute();
      await k
        .insertInto('events')
        .values({
          id: 'e1',
          message_id: 'm1',
          account_id: 'a1',
          type: 'email.delivered',
          created_at: 1,
          data: '{}',
        })
        .execute();
      await k
        .insertInto('webhooks')
        .values({
          id: 'w1',
          account_id: 'a1',
          url: 'https://h.example/',
          description: '',
          event_types: ',email.delivered,',
          enabled: 1,
          disabled_reason: null,
          secret: 's',
          previous_secret: null,
          previous_secret_until: null,
          created_at: 1,
          updated_at: 1,
        })
        .execute();
      await k
        .insertInto('webhook_outbox')
        .values({
          id: 'e1:w1',
          webhook_id: 'w1',
          event_id: 'e1',
          account_id: 'a1',
          status: 'delivered',
          attempts: 1,
          created_at: 1,
          next_attempt_at: null,
          lease_owner: null,
          lease_expires_at: null,
        })
        .execute();

      if (db.dialect === 'sqlite') {
        // An old orphan in a table the rebuild does not touch (written with foreign keys off, as an
        // older version or a hand edit could have left it) does not fail the migration.
        await sql`pragma foreign_keys = off`.execute(db.kysely);
        await sql`insert into suppressions (id, account_id, address, origin, reason, created_at)
          values ('s1', 'gone', 'x@dest.example', 'manual', 'r', 1)`.execute(db.kysely);
        await sql`pragma foreign_keys = on`.execute(db.kysely);
      }
      // 020 first, then whatever later migrations exist.
      expect((await migrate(db))[0]).toBe('020-account-reputation');
      expect(await db.kysely.selectFrom('events').select(['id', 'message_id']).execute()).toEqual([
        { id: 'e1', message_id: 'm1' },
      ]);
      expect(await db.kysely.selectFrom('webhook_outbox').select('id').execute()).toEqual([{ id: 'e1:w1' }]);
      expect(
        await db.kysely.selectFrom('accounts').select(['reputation_status', 'reputation_reason']).execute(),
      ).toEqual([{ reputation_status: 'healthy', reputation_reason: null }]);
      await db.kysely
        .insertInto('events')
        .values({
          id: 'e2',
          message_id: null,
          account_id: 'a1',
          type: 'account.paused',
          created_at: 2,
          data: '{}',
        })
        .execute();
      // The foreign keys still hold and still cascade: an unknown message is refused, and deleting the
      // message takes its event and that event's push.
      await expect(
        db.kysely
          .insertInto('events')
          .values({
            id: 'e3',
            message_id: 'nope',
            account_id: 'a1',
            type: 'email.delivered',
            created_at: 2,
            data: '{}',
          })
          .execute(),
      ).rejects.toThrow();
      await db.kysely.deleteFrom('messages').where('id', '=', 'm1').execute();
      expect(await db.kysely.selectFrom('events').select('id').execute()).toEqual([{ id: 'e2' }]);
      expect(await db.kysely.selectFrom('webhook_outbox').select('id').execute()).toEqual([]);
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
