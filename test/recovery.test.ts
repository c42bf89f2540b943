// Recovery after `kill -9` (process-registry.ts, ARCHITECTURE.md "Durability"): the leases of a killed
// process are released by the live ones, not waited out. A `txmail serve` killed while the peer holds
// its replies to "." and started again delivers every acknowledged message long before the leases the
// dead process took would have ended; on PostgreSQL a second `txmail worker` takes a killed one's
// messages over with no restart at all.
import { spawn, type ChildProcess } from 'node:child_process';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { databaseKinds, type DatabaseKind } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { BIN, startServer } from './helpers/process.js';
import { createTenant, validSend } from './helpers/services.js';
import type { Received } from './helpers/smtp-sink.js';
import { testFacade, type TestFacade } from './helpers/test-env.js';
import { until } from './helpers/wait.js';
import { apiFetch } from './helpers/server-contract.js';

// At most the connections one destination gets (delivery/destination-limits.ts): all in delivery at once.
const HELD = 5;
const PLAIN = 40;

// Processes started, killed and started again: 9-16 s each on a fast machine with the suite beside them,
// near the 60 s a test is given on a machine half as fast.
describe.each(databaseKinds)('recovery after kill -9 on $name', { timeout: 120_000 }, (kind) => {
  const mail = new MailFixture({ domains: ['dest.example', 'plain.example'] });
  const { sink } = mail;
  beforeAll(() => mail.start());
  afterAll(() => mail.stop());

  /** A fresh database shared by this test's services and the processes it starts. */
  const setUp = async (k: DatabaseKind, label: string) => {
    const database = await k.create();
    const env: Record<string, string> = {
      TXMAIL_DATABASE_URL: database.url,
      TXMAIL_HOSTNAME: `${label}.txmail.test`,
      TXMAIL_SECRET_KEY: 's'.repeat(64),
      ...mail.env,
      TXMAIL_RATE_LIMIT: '0',
      TXMAIL_LOG_LEVEL: 'warn',
    };
    const services = await createServices(parseConfig(env), { logger: pino({ level: 'silent' }) });
    const tenant = await createTenant(services, { domain: 'acme.example' });
    const holds = Array.from({ length: HELD }, (_, i) => `hold-${label}-${i}@dest.example`);
    const plain = Array.from({ length: PLAIN }, (_, i) => `${label}-${i}@plain.example`);
    const close = async () => {
      await services.close();
      await database.drop();
    };
    return { ...testFacade(services), env, services, tenant, holds, plain, close };
  };

  /** Leases (message id → until) held when the process died: what the restart must not wait out. */
  const leasesOf = async (facade: TestFacade) =>
    new Map((await facade.leased()).map((r) => [r.id, Number(r.lease_expires_at)]));

  /** Releases every reply held for a delivery that came after the kill (the dead one's stay unanswered). */
  const answerNewDeliveries = (holds: string[], stale: Map<string, Received | undefined>) => {
    for (const a of holds) {
      const h = sink.held(a);
      if (h && h !== stale.get(a)) sink.release(a);
    }
  };

  /** Every message delivered, each with the time its delivered event was recorded. */
  const allDelivered = async (
    facade: TestFacade,
    ids: string[],
    holds: string[],
    stale: Map<string, Received | undefined>,
  ) =>
    until(
      `all ${ids.length} acknowledged messages delivered`,
      async () => {
        answerNewDeliveries(holds, stale);
        const rows = await facade.eventsOfTypes(['email.delivered'], ids);
        return rows.length === ids.length
          ? new Map(rows.map((r) => [r.message_id!, Number(r.created_at)]))
          : undefined;
      },
      60_000,
    );

  const expectRecoveredBeforeLeasesEnd = (leases: Map<string, number>, delivered: Map<string, number>) => {
    // Every message the dead process held was delivered, and before its lease would have let anyone take it.
    expect(leases.size).toBeGreaterThanOrEqual(HELD);
    const late = [...leases].filter(([id, until]) => !(delivered.get(id)! < until));
    expect(late).toEqual([]);
  };

  it('a restarted txmail serve delivers every acknowledged message without waiting out the dead one’s leases', async () => {
    const run = await setUp(kind, `restart-${kind.name}`);
    let server = await startServer('serve', run.env);
    try {
      const ids: string[] = [];
      for (const to of [...run.holds, ...run.plain]) {
        const res = await apiFetch(server, '/api/email/send', {
          method: 'POST',
          headers: { 'x-api-key': run.tenant.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ ...validSend, to }),
        });
        expect(res.status).toBe(200);
        ids.push(((await res.json()) as { id: string }).id);
      }
      // Each held message is claimed, and its data has arrived: the reply to "." is all that is missing.
      await until('every held message in delivery', async () =>
        run.holds.every((a) => sink.held(a)) ? true : undefined,
      );
      server.child.kill('SIGKILL');
      expect(await server.exited).toBe('SIGKILL');
      const stale = new Map(run.holds.map((a) => [a, sink.held(a)]));
      const leases = await leasesOf(run);

      const restartedAt = Date.now();
      server = await startServer('serve', run.env);
      const delivered = await allDelivered(run, ids, run.holds, stale);
      console.log(
        `${kind.name}: ${ids.length} acknowledged, ${leases.size} leased at the kill; all delivered ` +
          `${Math.max(...delivered.values()) - restartedAt} ms after the restart began (the leases: 600 s)`,
      );
      expectRecoveredBeforeLeasesEnd(leases, delivered);
      // The dead process left the registry with its leases.
      const registered = await run.processes();
      expect(registered.map((p) => p.pid)).toEqual([server.child.pid]);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await run.close();
    }
  });

  it.runIf(kind.name === 'postgres')(
    'a live txmail worker takes over a killed one’s messages with no restart',
    async () => {
      const run = await setUp(kind, 'takeover');
      const account = (await run.account(run.tenant.accountId))!;
      const ids: string[] = [];
      for (const to of [...run.holds, ...run.plain]) {
        const r = await run.services.accept.accept({
          account,
          route: 'send',
          body: { ...validSend, to },
          idempotencyKey: undefined,
        });
        ids.push(r.id);
      }
      const workers: ChildProcess[] = [];
      const startWorker = () => {
        const child = spawn(BIN, ['worker'], { env: { ...process.env, ...run.env }, stdio: 'ignore' });
        workers.push(child);
        return child;
      };
      const registered = async () => (await run.processes()).map((p) => p.pid);
      try {
        const first = startWorker();
        await until('every held message in delivery by the first worker', async () =>
          run.holds.every((a) => sink.held(a)) ? true : undefined,
        );
        const second = startWorker();
        await until('the second worker registered', async () =>
          (await registered()).includes(second.pid!) ? true : undefined,
        );
        first.kill('SIGKILL');
        await new Promise((r) => first.once('exit', r));
        const stale = new Map(run.holds.map((a) => [a, sink.held(a)]));
        const leases = await leasesOf(run);
        const delivered = await allDelivered(run, ids, run.holds, stale);
        expectRecoveredBeforeLeasesEnd(leases, delivered);
        expect(await registered()).toEqual([second.pid]);
      } finally {
        for (const w of workers)
          if (w.exitCode === null && w.signalCode === null) {
            w.kill('SIGTERM');
            await new Promise((r) => w.once('exit', r));
          }
        await run.close();
      }
    },
  );
});
