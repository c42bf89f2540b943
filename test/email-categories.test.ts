// Bounce categories where customers see them, on SQLite and PostgreSQL: the events are recorded through
// the repositories' own record transactions (the worker's recordMany, the receiver's complete) with the
// `data.category` their writers give them; the log filters by it (GET /api/emails?category=), the list
// and the detail show it, and every bounce, delay, complaint and failure push carries it (null when
// the event has none).
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOUNCE_CATEGORIES, type BounceCategory } from '../src/bounce/categories.js';
import type { EventType, MessageStatus } from '../src/db/schema.js';
import { newId } from '../src/ids.js';
import { Metrics } from '../src/metrics.js';
import { databaseKinds } from './helpers/databases.js';
import { messageRow } from './helpers/message-row.js';
import { createTenant, startTestEnv, type Tenant, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

interface Summary {
  id: string;
  status: string;
  category: string | null;
}
interface Page {
  data: Summary[];
  next_cursor: string | null;
}
interface Push {
  type: string;
  data: { email_id: string; category?: string | null; reason?: string };
}

const ALL_EVENTS = [
  'email.delivered',
  'email.bounced',
  'email.complained',
  'email.delivery_delayed',
  'email.failed',
];

describe.each(databaseKinds)('bounce categories in the log and the webhooks on $name', (kind) => {
  let env: TestEnv;
  let alice: Tenant;
  let bob: Tenant;
  let secret = '';
  const receiver = new WebhookReceiver();
  const now = Date.now();
  /** The messages of the scenario below, by name. */
  const ids = {} as Record<
    | 'sessionBounce'
    | 'deferred'
    | 'expired'
    | 'uncategorized'
    | 'lateBounce'
    | 'complained'
    | 'bouncedThenDelayed'
    | 'deliveredThenDelayed'
    | 'superseded'
    | 'bobs',
    string
  >;

  beforeAll(async () => {
    await receiver.start();
    env = await startTestEnv(kind, { env: { TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true' } });
    alice = await createTenant(env.services, { plan: 'pro', domain: 'acme.example' });
    bob = await createTenant(env.services, { plan: 'pro', domain: 'bob.example' });
    const hook = await env.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: { 'x-api-key': alice.apiKey },
      payload: { url: receiver.url('/alice'), events: ALL_EVENTS },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    secret = (hook.json() as { secret: string }).secret;
    // The dispatcher pushes what the records queue; the worker finds nothing due (every message here
    // is leased far ahead, or final).
    await env.services.startWorker({ pollMs: 200 }, { schedule: [0, 150, 150, 150], pollMs: 50 });

    // Oldest first: the log lists them newest first.
    ids.sessionBounce = await claimed(alice);
    await workerRecords(ids.sessionBounce, 'bounced', 'email.bounced', 'unknown_recipient');
    ids.deferred = await claimed(alice);
    await workerRecords(ids.deferred, 'deferred', 'email.delivery_delayed', 'rate_limited');
    ids.expired = await claimed(alice, 'deferred');
    await workerRecords(ids.expired, 'failed', 'email.failed', 'expired');
    ids.uncategorized = await claimed(alice);
    await workerRecords(ids.uncategorized, 'bounced', 'email.bounced', undefined);
    ids.lateBounce = await claimed(alice);
    await workerRecords(ids.lateBounce, 'delivered', 'email.delivered', undefined);
    await receive(alice, ids.lateBounce, 'email.bounced', 'bounced', 'mailbox_full');
    ids.complained = await claimed(alice);
    await workerRecords(ids.complained, 'delivered', 'email.delivered', undefined);
    await receive(alice, ids.complained, 'email.complained', 'complained', 'complaint');
    ids.bouncedThenDelayed = await claimed(alice);
    await receive(alice, ids.bouncedThenDelayed, 'email.bounced', 'bounced', 'unknown_recipient');
    await receive(alice, ids.bouncedThenDelayed, 'email.delivery_delayed', undefined, 'network_error');
    ids.deliveredThenDelayed = await claimed(alice);
    await workerRecords(ids.deliveredThenDelayed, 'delivered', 'email.delivered', undefined);
    await receive(alice, ids.deliveredThenDelayed, 'email.delivery_delayed', undefined, 'network_error');
    // The receiver's bounce lands while the worker holds the message; the worker's later deferral
    // (superseded) records no event, so it gives no category either.
    ids.superseded = await claimed(alice);
    await receive(alice, ids.superseded, 'email.bounced', 'bounced', 'unknown_recipient');
    await workerRecords(ids.superseded, 'deferred', 'email.delivery_delayed', 'rate_limited', 'superseded');
    ids.bobs = await claimed(bob);
    await workerRecords(ids.bobs, 'bounced', 'email.bounced', 'unknown_recipient');
  });
  afterAll(async () => {
    await env?.close();
    await receiver.stop();
  });

  const db = () => env.services.db.kysely;
  const get = (url: string, t = alice) =>
    env.app.inject({ method: 'GET', url, headers: { 'x-api-key': t.apiKey } });
  const list = async (query: string, t = alice) => {
    const res = await get(`/api/emails?${query}`, t);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Page;
  };
  const idsOf = (page: Page) => page.data.map((m) => m.id);

  /** A message the worker `w1` holds, as it is while being delivered. */
  async function claimed(t: Tenant, status: MessageStatus = 'queued'): Promise<string> {
    const row = messageRow(t.accountId, {
      status,
      attempts: status === 'queued' ? 0 : 1,
      lease_owner: 'w1',
      lease_expires_at: now + 600_000,
    });
    await db().insertInto('messages').values(row).execute();
    return row.id;
  }

  /** The worker's record of an attempt whose event carries `category` (none when undefined). */
  async function workerRecords(
    messageId: string,
    status: MessageStatus,
    type: EventType,
    category: BounceCategory | undefined,
    expected: 'applied' | 'superseded' = 'applied',
  ): Promise<void> {
    const accountId = (await db()
      .selectFrom('messages')
      .select('account_id')
      .where('id', '=', messageId)
      .executeTakeFirstOrThrow())!.account_id;
    const outcomes = await env.recordAttempts([
      {
        messageId,
        accountId,
        owner: 'w1',
        status,
        nextAttemptAt: status === 'deferred' ? now + 600_000 : null,
        counted: true,
        attempt: undefined,
        events: [
          {
            id: newId(),
            type,
            data: { attempt: 1, reason: `recorded as ${type}`, ...(category ? { category } : {}) },
          },
        ],
        now,
      },
    ]);
    expect(outcomes).toEqual([expected]);
  }

  /** The receiver's transaction for one stored report (inbound-repo.ts complete()). */
  async function receive(
    t: Tenant,
    messageId: string,
    type: EventType,
    status: MessageStatus | undefined,
    category: BounceCategory,
  ): Promise<void> {
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
    const done = await env.completeInbound(
      inboundId,
      {},
      [
        {
          messageId,
          accountId: t.accountId,
          event: { id: newId(), type, data: { reason: `reported as ${type}`, category } },
          status,
          suppression: undefined,
        },
      ],
      now + 1,
    );
    expect(done).toBe(true);
  }

  it('finds the messages whose latest failure has a category, newest first, and only those', async () => {
    expect(idsOf(await list('category=unknown_recipient'))).toEqual([
      ids.superseded,
      ids.bouncedThenDelayed,
      ids.sessionBounce,
    ]);
    expect(idsOf(await list('category=rate_limited'))).toEqual([ids.deferred]);
    expect(idsOf(await list('category=expired'))).toEqual([ids.expired]);
    expect(idsOf(await list('category=mailbox_full'))).toEqual([ids.lateBounce]);
    expect(idsOf(await list('category=complaint'))).toEqual([ids.complained]);
    // A delay warning after delivery gives its category; after a bounce it does not replace the bounce's.
    expect(idsOf(await list('category=network_error'))).toEqual([ids.deliveredThenDelayed]);
    // An event without a category (as recorded before categories existed) is matched by no category.
    for (const c of BOUNCE_CATEGORIES)
      expect(idsOf(await list(`category=${c}`))).not.toContain(ids.uncategorized);
    // Another account's message with the same category is never listed.
    expect(idsOf(await list('category=unknown_recipient', bob))).toEqual([ids.bobs]);
  });

  it('combines the category with the other filters and pages through it with the cursor', async () => {
    expect(idsOf(await list('category=unknown_recipient&status=bounced'))).toEqual([
      ids.superseded,
      ids.bouncedThenDelayed,
      ids.sessionBounce,
    ]);
    expect(idsOf(await list('category=network_error&status=bounced'))).toEqual([]);
    expect(idsOf(await list('category=network_error&status=delivered'))).toEqual([ids.deliveredThenDelayed]);
    expect(idsOf(await list('category=unknown_recipient&to=someone@dest.example'))).toHaveLength(3);
    expect(idsOf(await list('category=unknown_recipient&to=other@dest.example'))).toEqual([]);
    const future = new Date(now + 3_600_000).toISOString();
    expect(idsOf(await list(`category=unknown_recipient&since=${future}`))).toEqual([]);

    const seen: string[] = [];
    let query = 'category=unknown_recipient&limit=1';
    for (let pages = 0; pages < 10; pages++) {
      const page = await list(query);
      expect(page.data.length).toBeLessThanOrEqual(1);
      seen.push(...idsOf(page));
      if (!page.next_cursor) break;
      query = `category=unknown_recipient&limit=1&cursor=${page.next_cursor}`;
    }
    expect(seen).toEqual([ids.superseded, ids.bouncedThenDelayed, ids.sessionBounce]);
  });

  it('refuses a category that is not one of the list with 400', async () => {
    for (const q of [
      'category=bounced',
      'category=Unknown_Recipient',
      'category=',
      `category=${'x'.repeat(5000)}`,
    ]) {
      const res = await get(`/api/emails?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.body, q).toMatch(/^validation_error: /);
    }
  });

  it('shows the category in the list, null for a message that has none', async () => {
    const page = await list('limit=100');
    const byId = new Map(page.data.map((m) => [m.id, m]));
    expect(byId.get(ids.sessionBounce)).toMatchObject({ status: 'bounced', category: 'unknown_recipient' });
    expect(byId.get(ids.lateBounce)).toMatchObject({ status: 'bounced', category: 'mailbox_full' });
    expect(byId.get(ids.complained)).toMatchObject({ status: 'complained', category: 'complaint' });
    expect(byId.get(ids.deferred)).toMatchObject({ status: 'deferred', category: 'rate_limited' });
    expect(byId.get(ids.uncategorized)).toMatchObject({ status: 'bounced', category: null });
    for (const m of page.data) expect(m).toHaveProperty('category');
  });

  it("shows the category in one message's detail and in each event's data", async () => {
    const res = await get(`/api/emails/${ids.bouncedThenDelayed}`);
    expect(res.statusCode).toBe(200);
    const m = res.json() as { status: string; category: string | null; events: Push[] };
    expect(m).toMatchObject({ status: 'bounced', category: 'unknown_recipient' });
    expect(m.events.map((e) => [e.type, e.data.category])).toEqual([
      ['email.delivery_delayed', 'network_error'],
      ['email.bounced', 'unknown_recipient'],
    ]);
    const plain = (await get(`/api/emails/${ids.uncategorized}`)).json() as { category: string | null };
    expect(plain.category).toBeNull();
  });

  it('pushes the category with every bounce, delay, complaint and failure, and null when the event has none', async () => {
    const pushes = await until(
      'the pushes of every recorded event',
      async () => (receiver.at('/alice').length >= 13 ? receiver.at('/alice') : undefined),
      15_000,
    );
    const payloads = pushes.map((p) => new Webhook(secret).verify(p.body, p.headers) as Push);
    const of = (id: string) =>
      payloads.filter((p) => p.data.email_id === id).map((p) => [p.type, p.data.category]);
    expect(of(ids.sessionBounce)).toEqual([['email.bounced', 'unknown_recipient']]);
    expect(of(ids.deferred)).toEqual([['email.delivery_delayed', 'rate_limited']]);
    expect(of(ids.expired)).toEqual([['email.failed', 'expired']]);
    expect(of(ids.complained).sort()).toEqual([
      ['email.complained', 'complaint'],
      ['email.delivered', undefined],
    ]);
    expect(of(ids.uncategorized)).toEqual([['email.bounced', null]]);
    // The rest of the payload is the event's record, as before.
    const bounce = payloads.find((p) => p.data.email_id === ids.sessionBounce)!;
    expect(bounce.data).toMatchObject({ reason: 'recorded as email.bounced', subject: 's' });
    // A delivered push has no category field at all.
    const delivered = payloads.find((p) => p.type === 'email.delivered')!;
    expect(delivered.data).not.toHaveProperty('category');
  });
});

describe('bounce categories in the metrics', () => {
  it('counts bounces, delays and complaints by category, and only the categories of the list', async () => {
    const metrics = new Metrics(
      async () => ({ waiting: 0, oldestCreatedAt: undefined }),
      () => 0,
    );
    metrics.countEvent({ type: 'email.bounced', data: { category: 'unknown_recipient' } });
    metrics.countEvent({ type: 'email.bounced', data: { category: 'unknown_recipient' } });
    metrics.countEvent({ type: 'email.delivery_delayed', data: { category: 'rate_limited' } });
    metrics.countEvent({ type: 'email.complained', data: { category: 'complaint' } });
    metrics.countEvent({ type: 'email.bounced', data: {} });
    metrics.countEvent({ type: 'email.bounced', data: { category: 'made_up_by_a_remote' } });
    metrics.countEvent({ type: 'email.delivered', data: {} });
    const lines = (await metrics.registry.metrics())
      .split('\n')
      .filter((l) => l.startsWith('txmail_email_events_total'));
    expect(lines.sort()).toEqual(
      [
        'txmail_email_events_total{type="email.bounced",category="unknown_recipient"} 2',
        'txmail_email_events_total{type="email.delivery_delayed",category="rate_limited"} 1',
        'txmail_email_events_total{type="email.complained",category="complaint"} 1',
        // Without a category of the list: counted by type alone.
        'txmail_email_events_total{type="email.bounced"} 2',
        'txmail_email_events_total{type="email.delivered"} 1',
      ].sort(),
    );
  });
});
