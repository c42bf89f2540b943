// The reputation counts kept by the real paths, on SQLite (the worker's prepared statements) and
// PostgreSQL (Kysely): messages sent through the worker to a real SMTP relay that refuses some
// recipients with 550 5.1.1 and defers one, then real DSN and ARF reports sent over SMTP to the
// receiver. The counts are read back through ReputationRepo, as the judge and the dashboard read them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundEffect } from '../src/db/inbound-repo.js';
import type { AttemptRecord } from '../src/db/queue-repo.js';
import type { MessageStatus } from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { utcDay } from '../src/clock.js';
import { deliveryDelta } from '../src/reputation/counts.js';
import { messageRow } from './helpers/message-row.js';
import type { InboundReceiver } from '../src/inbound/receiver.js';
import { databaseKinds } from './helpers/databases.js';
import { fixture } from './helpers/inbound-fixtures.js';
import { smtpSend } from './helpers/smtp-client.js';
import { SmtpSink } from './helpers/smtp-sink.js';
import { until } from './helpers/wait.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

const RETURN_PATH = 'send.acme.example';

describe.each(databaseKinds)('reputation counting on $name', (kind) => {
  let env: TestEnv;
  let tenant: Tenant;
  let other: Tenant;
  let receiver: InboundReceiver;
  const sink = new SmtpSink();
  const sent = new Map<string, { id: string; to: string }>();

  beforeAll(async () => {
    await sink.start();
    env = await startTestEnv(kind, {
      env: {
        TXMAIL_RELAY_URL: `smtp://127.0.0.1:${sink.port}`,
        TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true',
        TXMAIL_TEST_DOMAIN: 'test.txmail.example',
        TXMAIL_INBOUND_HOST: '127.0.0.1',
        TXMAIL_INBOUND_CONNECTIONS_PER_MINUTE: '0',
      },
    });
    tenant = await createTenant(env.services, { domain: 'acme.example' });
    other = await createTenant(env.services, { domain: 'other.example' });
    await env.services.startWorker({ pollMs: 200 });
    receiver = await env.services.startInbound({ port: 0 });
  });
  afterAll(async () => {
    await env?.close();
    await sink.stop();
  });

  const today = () => utcDay(Date.now());
  const repo = () => env.services.repos.reputation;
  const status = async (id: string) => (await env.statuses([id]))[0]!.status;
  const send = async (local: string) => {
    const to = `${local}-${Date.now()}@recipient.example`;
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/email/send',
      headers: { 'x-api-key': tenant.apiKey },
      payload: { ...validSend, to },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { id: string }).id;
    sent.set(local, { id, to });
    return id;
  };
  const settled = (id: string, wanted: string) =>
    until(`${id} ${wanted}`, async () => ((await status(id)) === wanted ? true : undefined));
  const report = async (name: string, local: string, fbl: boolean) => {
    const m = sent.get(local)!;
    const verp = sink.for(m.to).find((r) => r.from.includes(m.id.replaceAll('-', '')))!.from;
    const answer = await smtpSend(
      receiver.port,
      { from: '', to: [fbl ? `fbl@${RETURN_PATH}` : verp] },
      fixture(name, { verp, to: m.to, messageId: `${m.id}@mta.txmail.test`, returnPathDomain: RETURN_PATH }),
    );
    expect(answer.code, answer.response).toBe(250);
  };
  /** Waits until the receiver has processed everything it stored. */
  const quiet = () =>
    until('inbound processing', async () => {
      const pending = await env.inboundWithStatus('pending');
      return pending.length > 0 ? undefined : true;
    });

  it("counts the worker's records: sent once, final states, bad-address bounces", async () => {
    const ids = {
      ok1: await send('ok1'),
      ok2: await send('ok2'),
      ok3: await send('ok3'),
      bounce1: await send('bounce1'),
      bounce2: await send('bounce2'),
      defer1: await send('defer1'),
    };
    for (const k of ['ok1', 'ok2', 'ok3'] as const) await settled(ids[k], 'delivered');
    for (const k of ['bounce1', 'bounce2'] as const) await settled(ids[k], 'bounced');
    await settled(ids.defer1, 'deferred');

    expect(await repo().window(tenant.accountId, today())).toEqual({
      messages: 5,
      bounced: 2,
      complained: 0,
    });
    expect(await repo().windowByDomain(tenant.accountId, today())).toEqual([
      { domain: 'acme.example', messages: 5, bounced: 2, complained: 0 },
    ]);
    expect(await repo().activity(tenant.accountId, today(), today())).toEqual([
      {
        date: today(),
        sent: 6,
        delivered: 3,
        bounced: 2,
        complained: 0,
        final: 5,
        bad_bounces: 2,
        spam_complaints: 0,
      },
    ]);
    // Another account's counts are its own.
    expect(await repo().window(other.accountId, today())).toEqual({ messages: 0, bounced: 0, complained: 0 });
  });

  it('counts a DSN after delivery as a bounce against the list, not as a second final message', async () => {
    await report('postfix-user-unknown.eml', 'ok1', false);
    await settled(sent.get('ok1')!.id, 'bounced');
    expect(await repo().window(tenant.accountId, today())).toEqual({
      messages: 5,
      bounced: 3,
      complained: 0,
    });
    expect(await repo().activity(tenant.accountId, today(), today())).toEqual([
      {
        date: today(),
        sent: 6,
        delivered: 3,
        bounced: 3,
        complained: 0,
        final: 5,
        bad_bounces: 3,
        spam_complaints: 0,
      },
    ]);
  });

  it('counts an ARF abuse report as a spam complaint, an opt-out as none', async () => {
    await report('rfc5965-abuse.eml', 'ok2', true);
    await settled(sent.get('ok2')!.id, 'complained');
    expect(await repo().window(tenant.accountId, today())).toEqual({
      messages: 5,
      bounced: 3,
      complained: 1,
    });

    await report('arf/opt-out.eml', 'ok3', true);
    await settled(sent.get('ok3')!.id, 'complained');
    await quiet();
    expect(await repo().window(tenant.accountId, today())).toEqual({
      messages: 5,
      bounced: 3,
      complained: 1,
    });
    expect(await repo().activity(tenant.accountId, today(), today())).toEqual([
      {
        date: today(),
        sent: 6,
        delivered: 3,
        bounced: 3,
        complained: 1,
        final: 5,
        bad_bounces: 3,
        spam_complaints: 1,
      },
    ]);
  });

  it('a repeated report counts nothing more', async () => {
    await report('postfix-user-unknown.eml', 'ok1', false);
    await report('rfc5965-abuse.eml', 'ok2', true);
    await quiet();
    expect(await repo().window(tenant.accountId, today())).toEqual({
      messages: 5,
      bounced: 3,
      complained: 1,
    });
  });

  it('counts a spam complaint after an unsubscribe once, and records its event', async () => {
    const id = sent.get('ok3')!.id;
    const complaints = async () =>
      (await env.eventsOfTypes(['email.complained'], [id])).map(
        (e) => (JSON.parse(e.data) as { category: string }).category,
      );
    expect(await complaints()).toEqual(['unsubscribe']);
    await report('rfc5965-abuse.eml', 'ok3', true);
    await until('the spam complaint recorded', async () =>
      (await complaints()).length === 2 ? true : undefined,
    );
    await quiet();
    expect(await complaints()).toEqual(['unsubscribe', 'complaint']);
    expect(await repo().window(tenant.accountId, today())).toMatchObject({ complained: 2 });
    // Again: a repeat now.
    await report('rfc5965-abuse.eml', 'ok3', true);
    await quiet();
    expect(await complaints()).toHaveLength(2);
    expect(await repo().window(tenant.accountId, today())).toMatchObject({ complained: 2 });
  });

  it('shows the rates on /metrics, one series per account with a window, gone once reset', async () => {
    const scrape = async () => (await env.app.inject({ method: 'GET', url: '/metrics' })).body;
    const series = (name: string, text: string) => text.split('\n').filter((l) => l.startsWith(`${name}{`));
    const text = await scrape();
    const a = `account_id="${tenant.accountId}"`;
    expect(series('txmail_reputation_bounce_rate', text)).toEqual([
      `txmail_reputation_bounce_rate{${a}} 0.6`,
    ]);
    expect(series('txmail_reputation_complaint_rate', text)).toEqual([
      `txmail_reputation_complaint_rate{${a}} 0.4`,
    ]);
    expect(series('txmail_reputation_window_messages', text)).toEqual([
      `txmail_reputation_window_messages{${a}} 5`,
    ]);
    // The same per sending domain: all of this tenant's mail is from acme.example.
    const d = `${a},domain="acme.example"`;
    expect(series('txmail_reputation_domain_bounce_rate', text)).toEqual([
      `txmail_reputation_domain_bounce_rate{${d}} 0.6`,
    ]);
    expect(series('txmail_reputation_domain_complaint_rate', text)).toEqual([
      `txmail_reputation_domain_complaint_rate{${d}} 0.4`,
    ]);
    expect(series('txmail_reputation_domain_window_messages', text)).toEqual([
      `txmail_reputation_domain_window_messages{${d}} 5`,
    ]);

    await repo().resetWindow(tenant.accountId);
    const after = await scrape();
    expect(series('txmail_reputation_window_messages', after)).toEqual([]);
    expect(series('txmail_reputation_domain_window_messages', after)).toEqual([]);
  });

  describe('a record racing the receiver', () => {
    // A day of its own, and an account of its own: nothing else counts there.
    const now = Date.parse('2026-01-15T12:00:00Z');
    let accountId: string;
    beforeAll(async () => {
      accountId = (await createTenant(env.services)).accountId;
    });
    const claimed = async (status: MessageStatus, attempts: number) => {
      const row = messageRow(accountId, {
        status,
        attempts,
        next_attempt_at: now,
        lease_owner: 'w1',
        // A lease that lasts in real time: the running worker (which claims by the real clock) would
        // otherwise take over a lease ending in January and the record would find it lost.
        lease_expires_at: Date.now() + 600_000,
      });
      await env.insertMessage(row);
      return row;
    };
    const receiveBounce = async (messageId: string) => {
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
        // In real time, for the same reason: the inbound recovery pass claims by the real clock.
        lease_expires_at: Date.now() + 60_000,
        processed_at: null,
        outcome: null,
      });
      const effect: InboundEffect = {
        messageId,
        accountId,
        event: { id: newId(), type: 'email.bounced', data: { category: 'unknown_recipient' } },
        status: 'bounced',
        suppression: undefined,
        reputation: { kind: 'bounce', badAddress: true },
      };
      expect(await env.completeInbound(inboundId, {}, [effect], now)).toBe(true);
    };
    const delivered = (m: Awaited<ReturnType<typeof claimed>>): AttemptRecord => {
      const r = {
        messageId: m.id,
        accountId,
        owner: 'w1',
        status: 'delivered' as const,
        nextAttemptAt: null,
        counted: true,
        attempt: undefined,
        events: [{ id: newId(), type: 'email.delivered' as const, data: {} }],
        now,
      };
      return { ...r, reputation: deliveryDelta(m, r) };
    };
    const counts = async () => ({
      window: await repo().window(accountId, utcDay(now)),
      activity: (await repo().activity(accountId, utcDay(now), utcDay(now)))[0],
    });

    it("counts the receiver's bounce of a message in flight once: the superseded record adds nothing", async () => {
      const m = await claimed('queued', 0);
      await receiveBounce(m.id);
      expect(await env.recordAttempts([delivered(m)])).toEqual(['superseded']);
      expect(await counts()).toEqual({
        window: { messages: 1, bounced: 1, complained: 0 },
        activity: {
          date: '2026-01-15',
          sent: 1,
          delivered: 0,
          bounced: 1,
          complained: 0,
          final: 1,
          bad_bounces: 1,
          spam_complaints: 0,
        },
      });
    });

    it('sums a batch of applied records into the same row', async () => {
      const a = await claimed('queued', 0);
      const b = await claimed('deferred', 1);
      expect(await env.recordAttempts([delivered(a), delivered(b)])).toEqual(['applied', 'applied']);
      expect(await counts()).toEqual({
        window: { messages: 3, bounced: 1, complained: 0 },
        activity: {
          date: '2026-01-15',
          sent: 2,
          delivered: 2,
          bounced: 1,
          complained: 0,
          final: 3,
          bad_bounces: 1,
          spam_complaints: 0,
        },
      });
    });
  });
});
