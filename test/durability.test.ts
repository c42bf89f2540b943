// The promise behind every 2xx: the message is durably stored. Proven against the real program,
// killed with SIGKILL under load, and stopped with SIGTERM mid-load (graceful shutdown).
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';
import { startServer, type RunningServer } from './helpers/process.js';
import { createTenant, validSend } from './helpers/services.js';
import { apiFetch } from './helpers/server-contract.js';

async function prepare(database: TestDatabase) {
  const config = parseConfig({ TXMAIL_DATABASE_URL: database.url, TXMAIL_HOSTNAME: 'mta.example.com' });
  const services = await createServices(config, { logger: pino({ level: 'silent' }) });
  const tenant = await createTenant(services, { domain: 'acme.example' });
  await services.close();
  return tenant;
}

async function storedIds(database: TestDatabase): Promise<Set<string>> {
  const config = parseConfig({ TXMAIL_DATABASE_URL: database.url, TXMAIL_HOSTNAME: 'mta.example.com' });
  const services = await createServices(config, { logger: pino({ level: 'silent' }), migrate: false });
  const rows = await services.db.kysely
    .selectFrom('messages')
    .innerJoin('events', 'events.message_id', 'messages.id')
    .select('messages.id')
    .where('events.type', '=', 'email.queued')
    .execute();
  await services.close();
  return new Set(rows.map((r) => r.id));
}

/** Sends `total` requests with `concurrency` in flight; calls `onAck` after each 2xx. */
async function load(
  url: string,
  apiKey: string,
  total: number,
  concurrency: number,
  onAck: (n: number) => void,
) {
  const acked: string[] = [];
  const statuses: (number | string)[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      next++;
      try {
        const res = await apiFetch(url, '/api/email/send', {
          method: 'POST',
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify(validSend),
        });
        statuses.push(res.status);
        if (res.ok) {
          acked.push(((await res.json()) as { id: string }).id);
          onAck(acked.length);
        } else await res.text();
      } catch {
        statuses.push('connection error');
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { acked, statuses };
}

// A process started and loaded with thousands of requests: on a loaded machine (the full suite on two
// cores) the start alone may take half a minute, so each test has two.
describe.each(databaseKinds)('durability of accepted messages on $name', { timeout: 120_000 }, (kind) => {
  let database: TestDatabase;
  let server: RunningServer | undefined;
  afterEach(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await database.drop();
  });

  it('keeps every acknowledged message when the process is killed with SIGKILL under load', async () => {
    database = await kind.create();
    const tenant = await prepare(database);
    server = await startServer('api', {
      TXMAIL_DATABASE_URL: database.url,
      TXMAIL_RATE_LIMIT: '0',
      TXMAIL_LOG_LEVEL: 'warn',
    });
    const s = server;
    const { acked } = await load(s.url, tenant.apiKey, 3000, 40, (n) => {
      if (n === 400) s.child.kill('SIGKILL');
    });
    expect(await s.exited).toBe('SIGKILL');
    expect(acked.length).toBeGreaterThanOrEqual(400);
    const stored = await storedIds(database);
    const lost = acked.filter((id) => !stored.has(id));
    expect(lost).toEqual([]);
  });

  it('finishes requests in flight on SIGTERM and exits cleanly', async () => {
    database = await kind.create();
    const tenant = await prepare(database);
    server = await startServer('api', {
      TXMAIL_DATABASE_URL: database.url,
      TXMAIL_RATE_LIMIT: '0',
      TXMAIL_LOG_LEVEL: 'warn',
    });
    const s = server;
    const { acked, statuses } = await load(s.url, tenant.apiKey, 1500, 40, (n) => {
      if (n === 200) s.child.kill('SIGTERM');
    });
    expect(await s.exited).toBe(0);
    // Requests either completed (200), were told the server is closing (503), or found it gone.
    expect(statuses.filter((x) => x !== 200 && x !== 503 && x !== 'connection error')).toEqual([]);
    const stored = await storedIds(database);
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
    expect(stored.size).toBe(acked.length);
  });
});
