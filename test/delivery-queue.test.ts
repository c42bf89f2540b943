// The queue under time, competition and crashes: retries on schedule, several workers racing, a
// worker killed with SIGKILL mid-delivery.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { parseConfig } from '../src/config.js';
import { createServices, type Services } from '../src/services.js';
import type { MessageStatus } from '../src/db/schema.js';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import type { SmtpSink } from './helpers/smtp-sink.js';
import { testFacade } from './helpers/test-env.js';
import { until } from './helpers/wait.js';
import { BIN } from './helpers/process.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';
import { spawn } from 'node:child_process';

const SECRET = 's'.repeat(64);

function deliveryEnv(mail: MailFixture): Record<string, string> {
  return { ...mail.env, TXMAIL_SECRET_KEY: SECRET };
}

/** Message-ID header values received by the sink, with how many times each arrived. */
function receivedCounts(sink: SmtpSink): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of sink.received) {
    const id = /^Message-ID: <([^@]+)@/im.exec(r.raw.toString('utf8'))?.[1];
    if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

async function countByStatus(services: Services, status: MessageStatus): Promise<number> {
  return (await testFacade(services).idsWithStatus(status)).length;
}

// Worker processes killed and stopped mid-run: 10-14 s each on a fast machine with the suite beside them;
// one ran past the 60 s a test is given on a slow, loaded machine.
describe.each(databaseKinds)('queue on $name', { timeout: 120_000 }, (kind) => {
  const mail = new MailFixture({ domains: ['dest.example'] });
  const { sink } = mail;
  beforeAll(() => mail.start());
  afterAll(() => mail.stop());

  describe('retries', () => {
    let env: TestEnv;
    let tenant: Tenant;
    const clock = new ManualClock(Date.UTC(2026, 10, 22, 9, 0, 0));
    beforeAll(async () => {
      env = await startTestEnv(kind, { clock, env: deliveryEnv(mail) });
      tenant = await createTenant(env.services, { domain: 'acme.example' });
    });
    afterAll(() => env.close());

    const send = async (to: string) => {
      const res = await env.app.inject({
        method: 'POST',
        url: '/api/email/send',
        headers: { 'x-api-key': tenant.apiKey },
        payload: { ...validSend, to },
      });
      return (res.json() as { id: string }).id;
    };
    const message = (id: string) => env.message(tenant.accountId, id);
    const waitFor = (id: string, attempts: number) =>
      until(`attempt ${attempts} of ${id}`, async () => {
        const m = await message(id);
        return m && m.attempts >= attempts && m.lease_owner === null ? m : undefined;
      });

    it('retries a deferred message on schedule until it is delivered', async () => {
      const worker = await env.services.startWorker({ pollMs: 50 });
      const id = await send('flaky2@dest.example');
      expect(await waitFor(id, 1)).toMatchObject({ status: 'deferred' });
      clock.advance(4 * 60_000); // not due yet (5 min ± 15 %)
      worker.wake();
      // A message due now, queued after the clock moved: once it is delivered, the worker has claimed
      // at this time, and a claim takes every due message at once (under its 50 slots), so the deferred
      // one, had it been due, would be leased or attempted again by now.
      const marker = await send('marker@dest.example');
      await waitFor(marker, 1);
      expect(await message(id)).toMatchObject({ attempts: 1, lease_owner: null });
      clock.advance(2 * 60_000);
      worker.wake();
      expect(await waitFor(id, 2)).toMatchObject({ status: 'deferred' });
      clock.advance(12 * 60_000);
      worker.wake();
      expect(await waitFor(id, 3)).toMatchObject({ status: 'delivered', next_attempt_at: null });
      const events = await env.events(tenant.accountId, id);
      expect(events.map((e) => e.type)).toEqual([
        'email.delivered',
        'email.delivery_delayed',
        'email.queued',
      ]);
      const attempts = await env.attempts(tenant.accountId, id);
      expect(attempts.map((a) => a.outcome)).toEqual(['delivered', 'deferred', 'deferred']);
    });

    it('fails a message still undeliverable after two days, without trying it past them', async () => {
      const worker = await env.services.startWorker({ pollMs: 50 });
      const id = await send('defer-forever@dest.example');
      await waitFor(id, 1);
      clock.advance(2 * 24 * 3600_000 + 60_000);
      worker.wake();
      // Claimed past its two days: it fails as expired, and no attempt is made (ARCHITECTURE.md, Expiry).
      const failed = await until(`${id} failed`, async () => {
        const m = await message(id);
        return m?.status === 'failed' && m.lease_owner === null ? m : undefined;
      });
      expect(failed).toMatchObject({ attempts: 1, next_attempt_at: null, category: 'expired' });
      const events = await env.events(tenant.accountId, id);
      expect(events[0]).toMatchObject({ type: 'email.failed' });
      expect(JSON.parse(events[0]!.data)).toMatchObject({ reason: 'expired', category: 'expired' });
    });
  });

  it('delivers each message exactly once when two workers race', async () => {
    const database = await kind.create();
    const config = parseConfig({
      TXMAIL_DATABASE_URL: database.url,
      TXMAIL_HOSTNAME: 'race.txmail.test',
      TXMAIL_BUILD_THREADS: '0', // threads run the compiled build; this test runs from source
      ...deliveryEnv(mail),
    });
    const a = await createServices(config, { logger: pino({ level: 'silent' }) });
    const b = await createServices(config, { logger: pino({ level: 'silent' }), migrate: false });
    try {
      const tenant = await createTenant(a, { domain: 'acme.example' });
      const account = (await a.repos.accounts.findById(tenant.accountId))!;
      const ids = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          a.accept.accept({
            account,
            route: 'send',
            body: { ...validSend, to: `race${i}@dest.example` },
            idempotencyKey: undefined,
          }),
        ),
      );
      await Promise.all([
        a.startWorker({ pollMs: 20, concurrency: 20 }),
        b.startWorker({ pollMs: 20, concurrency: 20 }),
      ]);
      await until('all 300 delivered', async () =>
        (await countByStatus(a, 'delivered')) === 300 ? true : undefined,
      );
      const counts = receivedCounts(sink);
      const duplicates = ids.filter((r) => (counts.get(r.id) ?? 0) !== 1);
      expect(duplicates).toEqual([]);
      const owners = await a.db.kysely.selectFrom('delivery_attempts').select('id').execute();
      expect(owners).toHaveLength(300);
    } finally {
      await a.close();
      await b.close();
      await database.drop();
    }
  });

  /** A fresh database with `n` queued messages, and `txmail worker` processes to start on it. */
  const queuedRun = async (hostname: string, n: number, workerEnv: Record<string, string> = {}) => {
    const database: TestDatabase = await kind.create();
    const env = { TXMAIL_DATABASE_URL: database.url, TXMAIL_HOSTNAME: hostname, ...deliveryEnv(mail) };
    const services = await createServices(parseConfig(env), { logger: pino({ level: 'silent' }) });
    const tenant = await createTenant(services, { domain: 'acme.example' });
    const facade = testFacade(services);
    const account = (await facade.account(tenant.accountId))!;
    const ids = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        services.accept.accept({
          account,
          route: 'send',
          body: { ...validSend, to: `${hostname.split('.')[0]}${i}@dest.example` },
          idempotencyKey: undefined,
        }),
      ),
    );
    const startWorker = () =>
      spawn(BIN, ['worker'], {
        env: { ...process.env, ...env, TXMAIL_LOG_LEVEL: 'warn', ...workerEnv },
        stdio: 'ignore',
      });
    /** Starts a worker and waits until it has delivered all `n` (then stops it). */
    const finish = async () => {
      const worker = startWorker();
      try {
        await until(
          `all ${n} delivered`,
          async () => ((await countByStatus(services, 'delivered')) === n ? true : undefined),
          60_000,
        );
      } finally {
        worker.kill('SIGTERM');
        await new Promise((r) => worker.once('exit', r));
      }
    };
    const leased = () => facade.leased();
    const close = async () => {
      await services.close();
      await database.drop();
    };
    return { ...facade, services, ids, startWorker, finish, leased, close };
  };

  it('loses nothing when a worker process is killed with SIGKILL mid-delivery', async () => {
    const before = sink.received.length;
    // A lease long enough that the surviving worker's own never expire on a loaded machine (it would
    // deliver its own messages twice), short enough to take over the dead one's.
    const run = await queuedRun('kill.txmail.test', 600, { TXMAIL_WORKER_LEASE_SECONDS: '6' });
    try {
      const first = run.startWorker();
      await until('the first worker to be mid-run', async () =>
        sink.received.length - before >= 100 ? true : undefined,
      );
      first.kill('SIGKILL');
      await new Promise((r) => first.once('exit', r));
      const deliveredAtKill = await countByStatus(run.services, 'delivered');
      expect(deliveredAtKill).toBeLessThan(600); // it really was killed mid-run

      await run.finish();
      const counts = receivedCounts(sink);
      const missing = run.ids.filter((r) => !counts.has(r.id));
      expect(missing).toEqual([]);
      // Duplicates only for messages whose reply to "." was not recorded before the kill: at most the
      // worker's concurrency.
      const duplicated = run.ids.filter((r) => (counts.get(r.id) ?? 0) > 1);
      expect(duplicated.length).toBeLessThanOrEqual(50);
      expect(await run.leased()).toEqual([]);
    } finally {
      await run.close();
    }
  });

  it('stops a worker on SIGTERM after finishing its SMTP transactions, leaving nothing leased', async () => {
    const before = sink.received.length;
    const run = await queuedRun('term.txmail.test', 400);
    try {
      const first = run.startWorker();
      await until('the worker to be mid-run', async () =>
        sink.received.length - before >= 50 ? true : undefined,
      );
      first.kill('SIGTERM');
      const code = await new Promise((r) => first.once('exit', r));
      expect(code).toBe(0);
      expect(await run.leased()).toEqual([]);
      // Everything the sink accepted was recorded as delivered before the process exited.
      const delivered = new Set(await run.idsWithStatus('delivered'));
      const ours = new Set(run.ids.map((r) => r.id));
      const arrived = [...receivedCounts(sink).keys()].filter((id) => ours.has(id));
      expect(arrived.filter((id) => !delivered.has(id))).toEqual([]);
      expect(delivered.size).toBeLessThan(400); // it really stopped mid-run

      await run.finish();
      // A graceful stop leaves no duplicates at all.
      const counts = receivedCounts(sink);
      expect(run.ids.filter((r) => counts.get(r.id) !== 1)).toEqual([]);
    } finally {
      await run.close();
    }
  });
});
