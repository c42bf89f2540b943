// Fair delivery end to end (ARCHITECTURE.md, "Fair delivery claim"): the send route → the worker → a real
// SMTP server found through a real DNS server, while one account's burst drains. Another account's
// single messages, posted during the burst, are each delivered before the burst has drained, and far
// sooner after their acceptance than the burst's own messages (compared within the test: the claim
// serves accounts in turn, not the whole queue by due time).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dkimRecordName, dkimRecordValue } from '../src/dkim/keys.js';
import { databaseKinds } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { until } from './helpers/wait.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

const BURST = 2000;
const TRICKLE = 20;

describe.each(databaseKinds)('fair delivery on $name', (kind) => {
  let env: TestEnv;
  let burst: Tenant;
  let trickle: Tenant;
  const mail = new MailFixture({ domains: ['dest.example'] });
  const { dns: dnsServer, sink } = mail;

  beforeAll(async () => {
    await mail.start();
    env = await startTestEnv(kind, {
      env: {
        ...mail.env,
        // As many connections as a relay gets: the burst is limited by the worker, not the destination.
        TXMAIL_DESTINATION_LIMITS: 'default:connections=20,messages=1000',
      },
    });
    burst = await createTenant(env.services, { domain: 'acme.example', plan: 'scale' });
    trickle = await createTenant(env.services, { domain: 'beta.example' });
    for (const [t, domain] of [
      [burst, 'acme.example'],
      [trickle, 'beta.example'],
    ] as const) {
      const key = (await env.dkimKey(domain, t.accountId))!;
      dnsServer.add(dkimRecordName(key.selector, domain), 'TXT', dkimRecordValue(key.public_key));
    }
  });
  afterAll(async () => {
    await env.close();
    await mail.stop();
  });

  const send = async (t: Tenant, from: string, to: string) => {
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/email/send',
      headers: { 'x-api-key': t.apiKey },
      payload: { ...validSend, from, to },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { id: string }).id;
  };
  const db = () => env.services.db.kysely;
  /** Accept→delivered of each delivered message of the account, and when it was delivered. */
  const deliveries = async (accountId: string) =>
    (
      await db()
        .selectFrom('messages')
        .innerJoin('events', 'events.message_id', 'messages.id')
        .select(['messages.id', 'messages.created_at as accepted', 'events.created_at as delivered'])
        .where('events.type', '=', 'email.delivered')
        .where('messages.account_id', '=', accountId)
        .execute()
    ).map((r) => ({
      id: r.id,
      latency: Number(r.delivered) - Number(r.accepted),
      delivered: Number(r.delivered),
    }));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  it("delivers each of another account's messages before a 2,000-message burst has drained, far sooner than the burst's", async () => {
    // The burst: 20 requests in flight. Its first quarter is queued before the worker starts, so that
    // there is a backlog however fast this machine and database deliver; then, every 75 of its
    // messages, the other account sends one.
    let posted = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (posted < BURST / 4) {
          const n = ++posted;
          await send(burst, 'Acme <noreply@acme.example>', `user${n}@dest.example`);
        }
      }),
    );
    // Woken by each commit that queues mail (the fast path), as `txmail serve` runs it.
    await env.services.startWorker({ pollMs: 10 * 60_000 });
    const trickleIds: string[] = [];
    const waitingAtLast: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (posted < BURST) {
          const n = ++posted;
          await send(burst, 'Acme <noreply@acme.example>', `user${n}@dest.example`);
          if (n % ((BURST * 3) / 4 / TRICKLE) === 0) {
            trickleIds.push(await send(trickle, 'Beta <codes@beta.example>', `code${n}@dest.example`));
            if (trickleIds.length === TRICKLE) {
              // Only meaningful while the burst still waits: say so if it drained first.
              const waiting = await db()
                .selectFrom('messages')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .where('account_id', '=', burst.accountId)
                .where('next_attempt_at', 'is not', null)
                .executeTakeFirstOrThrow();
              waitingAtLast.push(Number(waiting.n));
            }
          }
        }
      }),
    );
    expect(trickleIds).toHaveLength(TRICKLE);
    expect(waitingAtLast[0]).toBeGreaterThan(0);

    const all = await until(
      'every message to be delivered',
      async () => {
        const [a, b] = [await deliveries(burst.accountId), await deliveries(trickle.accountId)];
        return a.length === BURST && b.length === TRICKLE ? { a, b } : undefined;
      },
      120_000,
    );
    const drained = Math.max(...all.a.map((d) => d.delivered));
    for (const d of all.b) expect(d.delivered, `message ${d.id}`).toBeLessThan(drained);
    const burstMedian = median(all.a.map((d) => d.latency));
    const trickleLatencies = all.b.map((d) => d.latency);
    // First-due, the other account's messages would wait about as long as the burst's.
    expect(Math.max(...trickleLatencies)).toBeLessThan(burstMedian);
    expect(median(trickleLatencies)).toBeLessThan(burstMedian / 4);
    expect(sink.received.length).toBeGreaterThanOrEqual(BURST + TRICKLE);
  }, 180_000);
});
