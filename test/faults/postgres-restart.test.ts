// Fault test: PostgreSQL restarted in the middle of a run of `txmail serve` under load. Clients retry
// what was not acknowledged with the same Idempotency-Key, as the API asks them to. The audit: every
// acknowledged message is stored once and delivered, none lost; duplicates at the sink only within the
// documented window. Runs after the main suite (vitest.faults.config.ts): restarting the server would
// break every other test's connections. Needs root (pg_ctlcluster) and a local cluster.
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.js';
import { createServices, type Services } from '../../src/services.js';
import { databaseKinds, type TestDatabase } from '../helpers/databases.js';
import { startServer, type RunningServer } from '../helpers/process.js';
import { createTenant, validSend } from '../helpers/services.js';
import { SmtpSink } from '../helpers/smtp-sink.js';
import { until } from '../helpers/wait.js';
import { apiFetch } from '../helpers/server-contract.js';

const postgres = databaseKinds.find((k) => k.name === 'postgres');
const clusterVersion = (() => {
  try {
    return readdirSync('/etc/postgresql')[0];
  } catch {
    return undefined;
  }
})();

describe.runIf(postgres && clusterVersion && process.getuid?.() === 0)(
  'PostgreSQL restarted under load',
  () => {
    let database: TestDatabase;
    let services: Services;
    let server: RunningServer | undefined;
    const sink = new SmtpSink();

    beforeAll(async () => {
      await sink.start();
      database = await postgres!.create();
    });
    afterAll(async () => {
      server?.child.kill('SIGKILL');
      await services?.close();
      await database.drop();
      await sink.stop();
    });

    it('loses no acknowledged message and stores none twice', async () => {
      const env = {
        TXMAIL_DATABASE_URL: database.url,
        TXMAIL_HOSTNAME: 'restart.txmail.test',
        TXMAIL_SECRET_KEY: 'r'.repeat(64),
        TXMAIL_RELAY_URL: `smtp://127.0.0.1:${sink.port}`,
        TXMAIL_RATE_LIMIT: '0',
        TXMAIL_LOG_LEVEL: 'warn',
      };
      services = await createServices(parseConfig(env), { logger: pino({ level: 'silent' }) });
      const tenant = await createTenant(services, { domain: 'acme.example' });
      server = await startServer('serve', env);
      const url = server.url;

      const TOTAL = 400;
      const acked = new Map<string, string>(); // idempotency key → message id
      let restarted: Promise<unknown> | undefined;
      const sendOne = async (n: number) => {
        const key = `restart-${n}`;
        for (let attempt = 0; attempt < 200; attempt++) {
          try {
            const res = await apiFetch(url, '/api/email/send', {
              method: 'POST',
              headers: {
                'x-api-key': tenant.apiKey,
                'content-type': 'application/json',
                'idempotency-key': key,
              },
              body: JSON.stringify({ ...validSend, to: `r${n}@anywhere.example` }),
            });
            const text = await res.text();
            if (res.status === 200) {
              acked.set(key, (JSON.parse(text) as { id: string }).id);
              return;
            }
            // Not acknowledged: the database is away (503) or the first try is still settling (409).
            expect([409, 503]).toContain(res.status);
          } catch {
            /* connection refused or reset: retry */
          }
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error(`message ${n} never acknowledged`);
      };
      let next = 0;
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          while (next < TOTAL) {
            const n = next++;
            if (n === 100) {
              restarted = promisify(execFile)('pg_ctlcluster', [clusterVersion!, 'main', 'restart']);
            }
            await sendOne(n);
          }
        }),
      );
      await restarted;
      expect(acked.size).toBe(TOTAL);
      // One stored message per acknowledged request, whatever the retries.
      expect(new Set(acked.values()).size).toBe(TOTAL);

      // What a failure shows: the messages left behind and what the server warned of. The restart is a
      // race, and a rare failure is only worth something with the evidence in hand.
      const undelivered = async () => {
        const left = await services.db.kysely
          .selectFrom('messages')
          .select(['id', 'status', 'attempts', 'next_attempt_at', 'lease_owner', 'lease_expires_at'])
          .where('status', '!=', 'delivered')
          .limit(10)
          .execute()
          .catch((e: Error) => `could not read the messages: ${e.message}`);
        const warned = new Set(
          server!
            .output()
            .split('\n')
            .filter((l) => /"level":[4-6]0/.test(l))
            .map((l) => /"msg":"([^"]*)"/.exec(l)?.[1]),
        );
        return `at ${Date.now()}: ${JSON.stringify(left)}\nthe server warned: ${[...warned].join(' | ')}`;
      };
      const audit = async () => {
        try {
          return await services.db.kysely.selectFrom('messages').select(['id', 'status']).execute();
        } catch {
          return undefined; // this test's own pool meets the restart too
        }
      };
      const rows = await until(
        'every message delivered',
        async () => {
          const r = await audit();
          return r && r.length === TOTAL && r.every((m) => m.status === 'delivered') ? r : undefined;
        },
        90_000,
      ).catch(async (err: Error) => {
        throw new Error(`${err.message}\n${await undelivered()}`);
      });
      expect(new Set(rows.map((r) => r.id))).toEqual(new Set(acked.values()));
      const arrivals = new Map<string, number>();
      for (const r of sink.received) {
        const id = /^Message-ID: <([^@]+)@/im.exec(r.raw.toString('utf8'))?.[1];
        if (id) arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
      }
      expect([...acked.values()].filter((id) => !arrivals.has(id))).toEqual([]);
      // A duplicate needs a delivery whose record was lost to the restart: at most the worker's slots.
      expect([...arrivals.values()].filter((n) => n > 1).length).toBeLessThanOrEqual(50);
    });
  },
);
