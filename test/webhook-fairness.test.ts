// Fair webhook dispatch end to end on SQLite and PostgreSQL: one account's endpoint hangs (a real HTTP
// server on loopback that holds every request until the test releases it) with a backlog of pushes; the
// server counts the requests open at once. Another account's push must get through meanwhile, and the
// hanging endpoint never holds more than 4 requests, with one dispatcher or with two `txmail worker`
// processes on the same database.
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { createServices, type Services } from '../src/services.js';
import { databaseKinds } from './helpers/databases.js';
import { freePort, startServer, type RunningServer } from './helpers/process.js';
import { createTenant, startTestEnv, type Tenant, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';
import { dueTimes, queuePushes } from './helpers/webhook-pushes.js';

/** An endpoint that holds every request until `release()`, and answers 200 from then on. */
function hangingEndpoint(receiver: WebhookReceiver, path: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const before = receiver.respond;
  receiver.respond = (push, i) =>
    push.path === path ? { status: 200, body: 'late', after: released } : before(push, i);
  return { release };
}

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
  Number(
    (
      await services.db.kysely
        .selectFrom('webhook_outbox')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('account_id', '=', accountId)
        .where('next_attempt_at', 'is not', null)
        .executeTakeFirstOrThrow()
    ).n,
  );

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
    const aEvents = await queuePushes(env.services.db.kysely, a.accountId, dueTimes(now - 10_000, 200));
    const [bEvent] = await queuePushes(env.services.db.kysely, b.accountId, [now]);

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
    await queuePushes(env.services.db.kysely, a.accountId, dueTimes(Date.now() - 1000, 20));
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
    await queuePushes(services.db.kysely, a.accountId, dueTimes(Date.now() - 10_000, 60));

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
      await queuePushes(services.db.kysely, b.accountId, [Date.now()]);
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
