// Fault test: an SMTP peer answering 4xx, 421 and 5xx at random and dropping connections, for every
// message, at RCPT and at the end of DATA. Time is moved by hand through the retry schedule. The audit:
// every accepted message ends delivered or bounced, a delivered one arrived exactly once (the drops all
// happen before the reply to "."), a bounced one never arrived, and every state has its one event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { databaseKinds } from './helpers/databases.js';
import { rng } from './helpers/fuzz.js';
import { MailFixture } from './helpers/mail-fixture.js';
import type { ChaosMove } from './helpers/smtp-sink.js';
import { until } from './helpers/wait.js';
import { createTenant, startTestEnv, validSend, type TestEnv } from './helpers/services.js';

// Whole runs against a chaotic peer: 16-19 s each on a fast machine with the suite beside them, near the
// 60 s a test is given on a machine half as fast.
describe.each(databaseKinds)('a chaotic SMTP peer on $name', { timeout: 120_000 }, (kind) => {
  const random = rng(20261123);
  const moves: [ChaosMove, number][] = [
    ['defer', 0.2],
    ['throttle', 0.05],
    ['bounce', 0.05],
    ['drop', 0.1],
  ];
  const mail = new MailFixture({
    domains: ['chaos.example'],
    sink: {
      chaos: () => {
        let r = random();
        for (const [move, p] of moves) if ((r -= p) < 0) return move;
        return 'ok';
      },
    },
  });
  const { sink } = mail;
  const clock = new ManualClock(Date.UTC(2026, 10, 23, 9, 0, 0));
  let env: TestEnv;

  beforeAll(async () => {
    await mail.start();
    env = await startTestEnv(kind, { clock, env: mail.env });
  });
  afterAll(async () => {
    await env.close();
    await mail.stop();
  });

  it('ends every accepted message delivered once or bounced, losing none', async () => {
    const tenant = await createTenant(env.services, { domain: 'acme.example' });
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await env.app.inject({
        method: 'POST',
        url: '/api/email/send',
        headers: { 'x-api-key': tenant.apiKey },
        payload: { ...validSend, to: `chaos${i}@chaos.example` },
      });
      expect(res.statusCode).toBe(200);
      ids.push((res.json() as { id: string }).id);
    }
    const worker = await env.services.startWorker({ pollMs: 20 });
    const open = async () =>
      (await env.messagesOf(tenant.accountId)).filter(
        (m) => m.next_attempt_at !== null || m.lease_owner !== null,
      ).length;
    // Let every due message be tried, then move time to the next retry (or the end of a pause).
    for (let round = 0; round < 400 && (await open()) > 0; round++) {
      await until('the due messages to be tried', async () => {
        const due = await env.dueOrLeased(clock.now());
        return due.length === 0 ? true : undefined;
      });
      const next = await env.nextDue();
      if (next === undefined) break;
      clock.set(Math.max(clock.now(), next));
      worker.wake();
    }

    const rows = await env.messagesOf(tenant.accountId);
    expect(rows).toHaveLength(60);
    const statuses = new Map(rows.map((r) => [r.id, r.status]));
    expect(rows.filter((r) => r.status !== 'delivered' && r.status !== 'bounced')).toEqual([]);
    // Chaos really happened: messages needed retries.
    expect(rows.some((r) => r.attempts > 1)).toBe(true);

    const arrivals = new Map<string, number>();
    for (const r of sink.received) {
      const id = /^Message-ID: <([^@]+)@/im.exec(r.raw.toString('utf8'))?.[1];
      if (id) arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
    }
    for (const id of ids) {
      expect({ id, arrived: arrivals.get(id) ?? 0 }).toEqual({
        id,
        arrived: statuses.get(id) === 'delivered' ? 1 : 0,
      });
    }
    const finals = await env.eventsOfTypes(['email.delivered', 'email.bounced'], ids);
    expect(finals).toHaveLength(60);
    for (const e of finals)
      expect(e.type).toBe(statuses.get(e.message_id!) === 'delivered' ? 'email.delivered' : 'email.bounced');
  }, 180_000);
});
