// Receiving servers that never answer do not hold the worker's slots (ARCHITECTURE.md, "Slow deliveries
// step aside"): with every slot taken by attempts to servers that accept the connection and never greet
// (a tarpit, a dead backend behind a load balancer), an account's next message, to a server that
// answers, is delivered while all those attempts are still waiting: none of them has come to an end
// (their connections are still open and no attempt of theirs is recorded).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { capturedLog } from './helpers/captured-log.js';
import { databaseKinds } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { TcpTestServer } from './helpers/tcp-test-server.js';
import { until } from './helpers/wait.js';
import { createTenant, sendAccepted, startTestEnv, type Tenant, type TestEnv } from './helpers/services.js';

const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;
/** The tarpit's address: the MX of every dead domain. */
const TARPIT = '127.0.0.60';
const SLOTS = 2;
const DEAD = 3 * SLOTS;

describe('slow receiving servers', () => {
  let env: TestEnv;
  let tenant: Tenant;
  const log = capturedLog();
  const mail = new MailFixture({ domains: ['dest.example'] });
  const open = new Set<net.Socket>();
  let accepted = 0;
  const tarpit = net.createServer((socket) => {
    accepted++;
    open.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => open.delete(socket));
  });

  beforeAll(async () => {
    await mail.start();
    // The same port as the sink (every MX is reached at TXMAIL_MX_PORT), on another loopback address.
    await new Promise<void>((resolve) => tarpit.listen(mail.sink.port, TARPIT, resolve));
    for (let i = 0; i < DEAD; i++) mail.addDomain(`dead${i}.example`, 'mx.dead.example', TARPIT);
    env = await startTestEnv(sqlite, {
      logger: log.logger,
      env: {
        ...mail.env,
        TXMAIL_WORKER_CONCURRENCY: String(SLOTS),
        // One connection to each dead domain and to the good one: the limits are not what is tested.
        TXMAIL_DESTINATION_LIMITS: 'default:connections=5,messages=100',
      },
    });
    tenant = await createTenant(env.services, { domain: 'acme.example' });
  });
  afterAll(async () => {
    // The waiting attempts end (connection closed, deferred) before the worker is stopped.
    for (const s of open) s.destroy();
    await new Promise<void>((resolve) => tarpit.close(() => resolve()));
    await env?.close();
    await mail.stop();
  });

  const send = (to: string) => sendAccepted(env, tenant, { to });

  it('delivers a message to a server that answers while every slot is held by servers that never greet', async () => {
    const dead: string[] = [];
    for (let i = 0; i < DEAD; i++) dead.push(await send(`jane@dead${i}.example`));
    // A short wait before an attempt stands aside, so the test need not take seconds per slot.
    const worker = await env.services.startWorker({ pollMs: 60_000, asideAfterMs: 200 });
    // Every slot held by a connection the tarpit never greets.
    await until('the slots to be taken by the tarpit', async () => (open.size >= SLOTS ? true : undefined));
    const reset = await send('jane@dest.example');
    await until('the reset to reach the server that answers', async () =>
      mail.sink.for('jane@dest.example').length > 0 ? true : undefined,
    );
    // Every dead attempt begun is still waiting: its connection open, nothing recorded of it.
    expect(accepted).toBeGreaterThan(SLOTS);
    expect(open.size).toBe(accepted);
    const recorded = (await env.allAttempts()).filter((a) => dead.includes(a.message_id));
    expect(recorded).toEqual([]);
    expect(worker.asideCount).toBeGreaterThanOrEqual(DEAD);
    await until('the reset to be recorded delivered', async () =>
      (await env.statuses([reset]))[0]?.status === 'delivered' ? true : undefined,
    );
    // The attempt is in the log, as an MTA's log has it: the message, the domain, what came of it.
    const line = await until('the attempt to be logged', async () =>
      log
        .text()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.msg === 'delivery attempt' && l.messageId === reset),
    );
    expect(line).toMatchObject({
      level: 30,
      domain: 'dest.example',
      outcome: 'delivered',
      status: 'delivered',
    });
  });
});

describe('slow receiving servers, past the limit of those standing aside', () => {
  let env: TestEnv;
  let tenant: Tenant;
  const mail = new MailFixture({ domains: ['dest.example'] });
  const open: { socket: net.Socket; at: number }[] = [];
  const tarpit = net.createServer((socket) => {
    open.push({ socket, at: Date.now() });
    socket.on('error', () => undefined);
  });
  const ASIDE_AFTER_MS = 100;

  beforeAll(async () => {
    await mail.start();
    await new Promise<void>((resolve) => tarpit.listen(mail.sink.port, TARPIT, resolve));
    for (const i of [0, 1]) mail.addDomain(`dead${i}.example`, 'mx.dead.example', TARPIT);
    env = await startTestEnv(sqlite, {
      env: { ...mail.env, TXMAIL_DESTINATION_LIMITS: 'default:connections=5,messages=100' },
    });
    tenant = await createTenant(env.services, { domain: 'acme.example' });
  });
  afterAll(async () => {
    for (const o of open) o.socket.destroy();
    await new Promise<void>((resolve) => tarpit.close(() => resolve()));
    await env?.close();
    await mail.stop();
  });

  const send = (to: string) => sendAccepted(env, tenant, { to });

  it('steps an attempt aside once there is room again, not only at its first try', async () => {
    await send('jane@dead0.example');
    const second = await send('jane@dead1.example');
    // One slot, one place aside: the first attempt stands aside, the second keeps the slot.
    const worker = await env.services.startWorker({
      pollMs: 60_000,
      concurrency: 1,
      asideAfterMs: ASIDE_AFTER_MS,
      asideLimit: 1,
    });
    await until('both attempts to be waiting on the tarpit', async () =>
      open.length >= 2 ? true : undefined,
    );
    // The second attempt's first try to stand aside has come and gone (the place was taken).
    await until('a few of its tries to pass', async () =>
      Date.now() - open[1]!.at > 5 * ASIDE_AFTER_MS ? true : undefined,
    );
    expect(worker.asideCount).toBe(1);
    // The first attempt ends (its server hangs up): there is room aside again.
    open[0]!.socket.destroy();
    const reset = await send('jane@dest.example');
    await until('the reset to reach the server that answers', async () =>
      mail.sink.for('jane@dest.example').length > 0 ? true : undefined,
    );
    // The second attempt still waits: it stood aside to let the reset through.
    expect(open[1]!.socket.destroyed).toBe(false);
    expect(worker.asideCount).toBe(2);
    const recorded = (await env.allAttempts()).filter((a) => [second, reset].includes(a.message_id));
    expect(recorded.map((r) => r.message_id)).not.toContain(second);
  });
});

describe.each(databaseKinds)(
  "slow receiving servers of one account, past the limit of those standing aside, and another account's mail on $name",
  (kind) => {
    let env: TestEnv;
    const mail = new MailFixture({ domains: ['dest.example'] });
    // Accepts and never greets.
    const tarpit = new TcpTestServer(() => undefined);

    beforeAll(async () => {
      await mail.start();
      await tarpit.start(mail.sink.port, TARPIT);
      for (const i of [0, 1, 2]) mail.addDomain(`dead${i}.example`, 'mx.dead.example', TARPIT);
      env = await startTestEnv(kind, {
        env: { ...mail.env, TXMAIL_DESTINATION_LIMITS: 'default:connections=5,messages=100' },
      });
    });
    afterAll(async () => {
      await tarpit.stop();
      await env?.close();
      await mail.stop();
    });

    it("delivers another account's reset while one account's attempts hold the slot and every place aside", async () => {
      const bulk = await createTenant(env.services, { domain: 'acme.example' });
      const other = await createTenant(env.services, { domain: 'other.example' });
      for (const i of [0, 1, 2]) await sendAccepted(env, bulk, { to: `jane@dead${i}.example` });
      // One slot, one place aside, one place in reserve (lease-loop.ts).
      await env.services.startWorker({ pollMs: 60_000, concurrency: 1, asideAfterMs: 100, asideLimit: 1 });
      // The slot and the place aside held by two attempts the tarpit never greets; the third waits.
      await until('two attempts waiting on the tarpit', async () =>
        tarpit.connections >= 2 ? true : undefined,
      );
      const reset = await sendAccepted(env, other, {
        from: 'Other <noreply@other.example>',
        to: 'ann@dest.example',
      });
      await until("the other account's reset to reach the server that answers", async () =>
        mail.sink.for('ann@dest.example').length > 0 ? true : undefined,
      );
      // The bulk account's attempts still wait, and its third message was not taken in the reserve.
      expect(tarpit.connections).toBe(2);
      expect(tarpit.closed).toBe(0);
      const status = await env.messagesOf(bulk.accountId);
      expect(status.map((m) => m.status).sort()).toEqual(['queued', 'queued', 'queued']);
      expect(reset).toBeDefined();
      // The reset itself is recorded delivered, on its reserve place.
      await until('the reset recorded delivered', async () =>
        (await env.message(other.accountId, reset))?.status === 'delivered' ? true : undefined,
      );
    });
  },
);

describe.each([
  ['with slots free', { concurrency: 5, asideLimit: 1 }],
  ['with every slot and place aside held, the reserve finding nothing', { concurrency: 1, asideLimit: 1 }],
])(
  'a worker whose attempts hang claims no more than its polls while nothing else is due, %s',
  (_case, limits) => {
    let env: TestEnv;
    const mail = new MailFixture({ domains: [] });
    // Accepts and never greets.
    const tarpit = new TcpTestServer(() => undefined);

    beforeAll(async () => {
      await mail.start();
      await tarpit.start(mail.sink.port, TARPIT);
      for (const i of [0, 1]) mail.addDomain(`dead${i}.example`, 'mx.dead.example', TARPIT);
      env = await startTestEnv(sqlite, {
        env: { ...mail.env, TXMAIL_DESTINATION_LIMITS: 'default:connections=5,messages=100' },
      });
    });
    afterAll(async () => {
      await tarpit.stop();
      await env?.close();
      await mail.stop();
    });

    // A message in flight is due and leased: counted as due, it made every wait 0, and the worker
    // claimed and asked again hundreds of times a second (a review: 500 and 668 claims in a second).
    it('claims at most twice in a second with a poll of a minute', async () => {
      const bulk = await createTenant(env.services, { domain: 'acme.example' });
      for (const i of [0, 1]) await sendAccepted(env, bulk, { to: `jane@dead${i}.example` });
      const claims = vi.spyOn(env.services.repos.queue, 'claimDue');
      await env.services.startWorker({ pollMs: 60_000, asideAfterMs: 100, ...limits });
      await until('both attempts waiting on the tarpit', async () =>
        tarpit.connections >= 2 ? true : undefined,
      );
      // Both asked to stand aside by now (every 100 ms): one did, the other was refused.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = claims.mock.calls.length;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(claims.mock.calls.length - before).toBeLessThan(3);
      claims.mockRestore();
    });
  },
);
