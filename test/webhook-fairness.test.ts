// Fair webhook dispatch end to end on SQLite and PostgreSQL: one account's endpoints hang (a real HTTP
// server on loopback that holds every request until the test releases it) with a backlog of pushes; the
// server counts the requests open at once. Another account's push must get through meanwhile: at once
// while a dispatcher has a free slot (one account holds at most 10, an endpoint at most 4), and in the
// first slot that frees when two accounts' hanging endpoints hold all 20; with one dispatcher or with two
// `txmail worker` processes on the same database.
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { createServices, type Services } from '../src/services.js';
import { databaseKinds } from './helpers/databases.js';
import { freePort, startServer, type RunningServer } from './helpers/process.js';
import { createTenant, startTestEnv, type Tenant, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';
import { dueTimes } from './helpers/webhook-pushes.js';
import { testFacade } from './helpers/test-env.js';

/** An endpoint that holds every request until `release()`, and answers 200 from then on. */
function hangingEndpoint(receiver: WebhookReceiver, path: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const before = receiver.respond;
  receiver.respond = (push, i) =>
    push.path === path ? { status: 200, body: 'late', after: released } : before(push, i);
  return { release };
}

/**
 * Every endpoint whose path starts with `prefix` holds each request until it is released: the oldest one
 * alone, or all of them (and answers at once from then on).
 */
function holdingEndpoints(receiver: WebhookReceiver, prefix: string) {
  const held: (() => void)[] = [];
  let open = false;
  const before = receiver.respond;
  receiver.respond = (push, i) => {
    if (!push.path.startsWith(prefix)) return before(push, i);
    if (open) return { status: 200, body: 'ok' };
    return { status: 200, body: 'late', after: new Promise<void>((resolve) => held.push(resolve)) };
  };
  return {
    releaseOldest: () => held.shift()?.(),
    releaseAll: () => {
      open = true;
      for (const release of held.splice(0)) release();
    },
  };
}

/** Requests received at paths starting with `prefix`. */
const receivedUnder = (receiver: WebhookReceiver, prefix: string) =>
  receiver.received.filter((p) => p.path.startsWith(prefix)).length;

/** An endpoint of the tenant at `path` of the receiver, made through the API (its secret sealed). */
async function endpoint(services: Services, tenant: Tenant, url: string): Promise<string> {
  const app = services.http();
  try {
    const res = await app.inject({
      method: 'POST',
      url: '/api/webhooks',
      headers: { 'x-api-key': tenant.apiKey },
      payload: { url },
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: string }).id;
  } finally {
    await app.close();
  }
}

const pendingOf = async (services: Services, accountId: string) =>
  testFacade(services).pendingPushes(accountId);

describe.each(databaseKinds)('fair webhook dispatch on $name', (kind) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it("delivers account B's push while 200 of account A's wait on A's hanging endpoint, never with more than 4 of A's requests open", async () => {
    const receiver = await new WebhookReceiver().start();
    cleanups.push(() => receiver.stop());
    const env: TestEnv = await startTestEnv(kind, { env: { TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true' } });
    cleanups.push(() => env.close());
    const a = await createTenant(env.services);
    const b = await createTenant(env.services);
    await endpoint(env.services, a, receiver.url('/a'));
    await endpoint(env.services, b, receiver.url('/b'));
    const hang = hangingEndpoint(receiver, '/a');
    cleanups.push(async () => hang.release());
    // A's 200 pushes are all older than B's one.
    const now = Date.now();
    const aEvents = await env.queuePushes(a.accountId, dueTimes(now - 10_000, 200));
    const [bEvent] = await env.queuePushes(b.accountId, [now]);

    await env.services.startWorker(undefined, { pollMs: 50 });
    const pushB = await until("B's push", async () => receiver.at('/b')[0], 10_000);
    expect(pushB.headers['webhook-id']).toBe(bEvent);
    // Meanwhile A's endpoint holds the 4 oldest of A's pushes, and got no other.
    await until('4 requests open at A', async () => (receiver.openAt('/a') === 4 ? true : undefined));
    expect(
      receiver
        .at('/a')
        .map((p) => p.headers['webhook-id'])
        .sort(),
    ).toEqual(aEvents.slice(0, 4).sort());
    expect(receiver.mostOpenAt('/a')).toBe(4);

    hang.release();
    await until('every push of A delivered', async () =>
      (await pendingOf(env.services, a.accountId)) === 0 ? true : undefined,
    );
    expect(receiver.at('/a')).toHaveLength(200);
    expect(receiver.mostOpenAt('/a')).toBe(4);
  });

  it("delivers account B's push at once while account A's 5 endpoints hang with 200 pushes, A holding only 10 of the dispatcher's 20 slots", async () => {
    const receiver = await new WebhookReceiver().start();
    cleanups.push(() => receiver.stop());
    const env = await startTestEnv(kind, { env: { TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true' } });
    cleanups.push(() => env.close());
    const a = await createTenant(env.services, { plan: 'scale' });
    const b = await createTenant(env.services);
    for (let i = 1; i <= 5; i++) await endpoint(env.services, a, receiver.url(`/a${i}`));
    await endpoint(env.services, b, receiver.url('/b'));
    const hold = holdingEndpoints(receiver, '/a');
    cleanups.push(async () => hold.releaseAll());
    await env.queuePushes(a.accountId, dueTimes(Date.now() - 10_000, 40));

    await env.services.startWorker(undefined, { pollMs: 50 });
    await until('10 requests open at A', async () =>
      receivedUnder(receiver, '/a') >= 10 ? true : undefined,
    );
    // B's push arrives while every request of A hangs (each of A's endpoints could take 4).
    const [bEvent] = await env.queuePushes(b.accountId, [Date.now()]);
    await until("B's push, or more of A's", async () =>
      receiver.at('/b').length > 0 || receivedUnder(receiver, '/a') > 10 ? true : undefined,
    );
    expect(receiver.at('/b').map((p) => p.headers['webhook-id'])).toEqual([bEvent]);
    expect(receivedUnder(receiver, '/a')).toBe(10);

    hold.releaseAll();
    await until('every push of A delivered', async () =>
      (await pendingOf(env.services, a.accountId)) === 0 ? true : undefined,
    );
    expect(receivedUnder(receiver, '/a')).toBe(200);
    for (let i = 1; i <= 5; i++) expect(receiver.mostOpenAt(`/a${i}`)).toBeLessThanOrEqual(4);
  });

  it("gives the first slot that frees to account B's push while accounts A and C, 5 hanging endpoints each, hold all 20", async () => {
    const receiver = await new WebhookReceiver().start();
    cleanups.push(() => receiver.stop());
    const env = await startTestEnv(kind, { env: { TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true' } });
    cleanups.push(() => env.close());
    const a = await createTenant(env.services, { plan: 'scale' });
    const c = await createTenant(env.services, { plan: 'scale' });
    const b = await createTenant(env.services);
    for (let i = 1; i <= 5; i++) {
      await endpoint(env.services, a, receiver.url(`/a${i}`));
      await endpoint(env.services, c, receiver.url(`/c${i}`));
    }
    await endpoint(env.services, b, receiver.url('/b'));
    const holdA = holdingEndpoints(receiver, '/a');
    const holdC = holdingEndpoints(receiver, '/c');
    cleanups.push(async () => {
      holdA.releaseAll();
      holdC.releaseAll();
    });
    // A's and C's backlogs (100 pushes each) are older than B's push.
    const now = Date.now();
    await env.queuePushes(a.accountId, dueTimes(now - 20_000, 20));
    await env.queuePushes(c.accountId, dueTimes(now - 10_000, 20));

    await env.services.startWorker(undefined, { pollMs: 50 });
    await until('20 requests open at A and C', async () =>
      receivedUnder(receiver, '/a') === 10 && receivedUnder(receiver, '/c') === 10 ? true : undefined,
    );
    // The dispatcher is full; B's push arrives, then one of A's requests is answered.
    const [bEvent] = await env.queuePushes(b.accountId, [now]);
    const before = receiver.received.length;
    holdA.releaseOldest();
    const next = await until('the next request', async () => receiver.received[before]);
    expect(next.path).toBe('/b');
    expect(next.headers['webhook-id']).toBe(bEvent);

    holdA.releaseAll();
    holdC.releaseAll();
    await until('every push of A and C delivered', async () =>
      (await pendingOf(env.services, a.accountId)) + (await pendingOf(env.services, c.accountId)) === 0
        ? true
        : undefined,
    );
    expect(receivedUnder(receiver, '/a') + receivedUnder(receiver, '/c')).toBe(200);
  });

  it("holds test pushes (POST /api/webhooks/:id/test) to the pushes' limits: 4 open at an endpoint, 10 for an account", async () => {
    const receiver = await new WebhookReceiver().start();
    cleanups.push(() => receiver.stop());
    const env: TestEnv = await startTestEnv(kind, { env: { TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true' } });
    cleanups.push(() => env.close());
    const a = await createTenant(env.services);
    const ids: string[] = [];
    for (const path of ['/t0/', '/t1/', '/t2/'])
      ids.push(await endpoint(env.services, a, receiver.url(path)));
    const held = holdingEndpoints(receiver, '/t');
    cleanups.push(async () => held.releaseAll());
    const answers: { status: number; body: string; retryAfter: unknown }[] = [];
    const pending: Promise<unknown>[] = [];
    const test = (id: string) =>
      pending.push(
        env.app
          .inject({ method: 'POST', url: `/api/webhooks/${id}/test`, headers: { 'x-api-key': a.apiKey } })
          .then((r) =>
            answers.push({ status: r.statusCode, body: r.body, retryAfter: r.headers['retry-after'] }),
          ),
      );
    const refused = () => answers.filter((r) => r.status === 429);
    // Six to one endpoint: four go out and stay open, two are refused at once.
    for (let i = 0; i < 6; i++) test(ids[0]!);
    await until('two refused', async () => (refused().length === 2 ? true : undefined));
    await until('four open', async () => (receiver.openAt('/t0/') === 4 ? true : undefined));
    expect(refused()[0]!.body).toMatch(/^rate_limit_exceeded: 4 test pushes to this endpoint are under way/);
    expect(refused()[0]!.retryAfter).toBe('15');
    // Four to each of the two others: the account's tenth is the last that goes out.
    for (let i = 0; i < 4; i++) test(ids[1]!);
    for (let i = 0; i < 4; i++) test(ids[2]!);
    await until('two more refused', async () => (refused().length === 4 ? true : undefined));
    expect(refused()[3]!.body).toMatch(/^rate_limit_exceeded: 10 test pushes of this account are under way/);
    await until('ten open', async () =>
      receiver.openAt('/t0/') + receiver.openAt('/t1/') + receiver.openAt('/t2/') === 10 ? true : undefined,
    );
    // Answered: each test answers with its attempt, and the endpoint takes tests again.
    held.releaseAll();
    await Promise.all(pending);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(10);
    test(ids[0]!);
    await Promise.all(pending);
    expect(answers.at(-1)!.status).toBe(200);
  });

  it('holds as many requests open at one endpoint as TXMAIL_WEBHOOK_ENDPOINT_CONCURRENCY allows', async () => {
    const receiver = await new WebhookReceiver().start();
    cleanups.push(() => receiver.stop());
    const env = await startTestEnv(kind, {
      env: { TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true', TXMAIL_WEBHOOK_ENDPOINT_CONCURRENCY: '2' },
    });
    cleanups.push(() => env.close());
    const a = await createTenant(env.services);
    await endpoint(env.services, a, receiver.url('/a'));
    const hang = hangingEndpoint(receiver, '/a');
    cleanups.push(async () => hang.release());
    await env.queuePushes(a.accountId, dueTimes(Date.now() - 1000, 20));
    await env.services.startWorker(undefined, { pollMs: 50 });
    await until('2 requests open at A', async () => (receiver.openAt('/a') >= 2 ? true : undefined));
    hang.release();
    await until('every push of A delivered', async () =>
      (await pendingOf(env.services, a.accountId)) === 0 ? true : undefined,
    );
    expect(receiver.at('/a')).toHaveLength(20);
    expect(receiver.mostOpenAt('/a')).toBe(2);
  });

  it('keeps at most 4 requests open at a hanging endpoint with two txmail worker processes on the database', async () => {
    const database = await kind.create();
    cleanups.push(() => database.drop());
    const receiver = await new WebhookReceiver().start();
    cleanups.push(() => receiver.stop());
    const vars = {
      TXMAIL_DATABASE_URL: database.url,
      TXMAIL_HOSTNAME: 'mta.txmail.test',
      TXMAIL_SECRET_KEY: 'w'.repeat(64),
      TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true',
      TXMAIL_LOG_LEVEL: 'warn',
    };
    const services = await createServices(parseConfig(vars), { logger: pino({ level: 'silent' }) });
    cleanups.push(() => services.close());
    const a = await createTenant(services);
    const b = await createTenant(services);
    await endpoint(services, a, receiver.url('/a'));
    await endpoint(services, b, receiver.url('/b'));
    const hang = hangingEndpoint(receiver, '/a');
    cleanups.push(async () => hang.release());
    await testFacade(services).queuePushes(a.accountId, dueTimes(Date.now() - 10_000, 60));

    const workers: RunningServer[] = [];
    const startWorker = async () => {
      const healthPort = await freePort();
      // startServer waits for /healthz on the health port: the role has no other HTTP listener.
      const worker = await startServer(
        'worker',
        { ...vars, TXMAIL_WORKER_HEALTH_PORT: String(healthPort) },
        healthPort,
      );
      cleanups.push(async () => {
        worker.child.kill('SIGTERM');
        await worker.exited;
      });
      workers.push(worker);
    };
    await startWorker();
    await until('4 requests open at A', async () => (receiver.openAt('/a') === 4 ? true : undefined));
    await startWorker();
    // B's pushes, one at a time, until each worker has delivered one: both are claiming while A's
    // endpoint is full.
    const delivered = async (w: RunningServer) =>
      /txmail_webhook_attempts_total\{outcome="success"\} [1-9]/.test(
        await (await fetch(`${w.url}/metrics`)).text(),
      );
    for (let i = 1; !((await delivered(workers[0]!)) && (await delivered(workers[1]!))); i++) {
      expect(i, "both workers delivering B's pushes").toBeLessThan(40);
      await testFacade(services).queuePushes(b.accountId, [Date.now()]);
      await until(`B's push ${i}`, async () => (receiver.at('/b').length === i ? true : undefined), 10_000);
    }
    expect(receiver.openAt('/a')).toBe(4);
    expect(receiver.at('/a')).toHaveLength(4);
    expect(receiver.mostOpenAt('/a')).toBe(4);

    hang.release();
    await until('every push of A delivered', async () =>
      (await pendingOf(services, a.accountId)) === 0 ? true : undefined,
    );
    expect(receiver.at('/a')).toHaveLength(60);
    expect(receiver.mostOpenAt('/a')).toBe(4);
  }, 60_000);
});
