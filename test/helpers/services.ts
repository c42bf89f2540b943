// Builds a txmail instance for a test on a fresh database, with helpers to create tenants; what tests
// read and set in it is the facade's (test-env.ts), which the instance carries.
import pino, { type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { ManualClock, type Clock } from '../../src/clock.js';
import { parseConfig, type Config } from '../../src/config.js';
import type { Plan } from '../../src/db/schema.js';
import { generateDkimKey, type DkimKeyPair } from '../../src/dkim/keys.js';
import { newId } from '../../src/ids.js';
import { createServices, type Services } from '../../src/services.js';
import type { DatabaseKind, TestDatabase } from './databases.js';
import { recordContract } from './openapi-contract.js';
import { testFacade, type TestFacade } from './test-env.js';

export interface TestEnv extends TestFacade {
  database: TestDatabase;
  services: Services;
  app: FastifyInstance;
  clock: Clock;
  close(): Promise<void>;
}

export async function startTestEnv(
  kind: DatabaseKind,
  options: {
    env?: Record<string, string>;
    clock?: ManualClock;
    /** SQLite: accept on the compiled accept thread, as `txmail api` does (needs a current build). */
    acceptThread?: boolean;
    /** Another instance's database, shared (left in place on close): several processes on one database. */
    database?: TestDatabase;
    /** Silent unless given. */
    logger?: Logger;
  } = {},
): Promise<TestEnv> {
  const database = options.database ?? (await kind.createMigrated());
  const config: Config = parseConfig({
    TXMAIL_DATABASE_URL: database.url,
    TXMAIL_HOSTNAME: 'mta.txmail.test',
    TXMAIL_SECRET_KEY: 'k'.repeat(64),
    TXMAIL_RATE_LIMIT: '0',
    // The cheapest scrypt cost: a password hash at the default costs some 50-100 ms of CPU, and the
    // sign-in tests make hundreds (the default is tested in unit/passwords.test.ts).
    TXMAIL_PASSWORD_COST: '1024',
    // Build on the event loop: a thread pool per test instance costs more than it saves. The threaded
    // builder has its own test (message-builder.test.ts), and every test of a started process uses it.
    TXMAIL_BUILD_THREADS: '0',
    // Likewise the SQLite accept thread: accept on the event loop unless a test asks for the thread.
    TXMAIL_SQLITE_WRITER_THREAD: options.acceptThread ? '1' : '0',
    ...options.env,
  });
  const clock = options.clock ?? { now: () => Date.now() };
  const services = await createServices(config, {
    clock,
    logger: options.logger ?? pino({ level: 'silent' }),
    generateDkimKey: pooledDkimKey,
  });
  const app = services.http();
  // Every answer is checked against /openapi.json (test/openapi-contract-setup.ts).
  const contract = recordContract(app, config.publicUrl);
  await app.ready();
  return {
    ...testFacade(services),
    database,
    services,
    app,
    clock,
    async close() {
      contract.flush();
      await app.close();
      await services.close();
      if (!options.database) await database.drop();
    },
  };
}

// Real RSA-2048 keys, made once per test process and handed out in turn: generating one per domain
// costs up to a second of CPU each, which slows the suite and starves timing-sensitive tests.
const KEY_POOL_SIZE = 4;
const keyPool: Promise<DkimKeyPair>[] = [];
let nextKey = 0;
function pooledDkimKey(): Promise<DkimKeyPair> {
  const i = nextKey++ % KEY_POOL_SIZE;
  keyPool[i] ??= generateDkimKey();
  return keyPool[i];
}

export interface Tenant {
  accountId: string;
  email: string;
  apiKey: string;
  apiKeyId: string;
}

/**
 * An account with an API key; `domain` adds a verified domain with its DKIM key (as adding and
 * verifying one does) and makes the account production. `dkim: false` leaves the domain without a key,
 * like one set verified by hand before verification existed.
 */
export async function createTenant(
  services: Services,
  options: { plan?: Plan; domain?: string; email?: string; dkim?: boolean } = {},
): Promise<Tenant> {
  const email = options.email ?? `owner-${newId().slice(-12)}@customer.example`;
  const account = await services.accounts.create({ email, plan: options.plan ?? 'pro' });
  if (options.domain) {
    await testFacade(services).addVerifiedDomain(account.id, options.domain, { dkim: options.dkim });
  }
  const key = await services.accounts.createApiKey(account.id, 'test');
  return { accountId: account.id, email, apiKey: key.key, apiKeyId: key.record.id };
}

export const validSend = {
  from: 'Acme <noreply@acme.example>',
  to: 'Jane Doe <jane@recipient.example>',
  subject: 'Reset your password',
  message: '<p>Click <a href="https://acme.example/reset?t=1">here</a> to reset.</p>',
};

/** Posts `validSend` with the tenant's key (and `fields` over it), expects the 200, and returns the id. */
export async function sendAccepted(
  env: Pick<TestEnv, 'app'>,
  tenant: Pick<Tenant, 'apiKey'>,
  fields: Partial<typeof validSend> = {},
): Promise<string> {
  const res = await env.app.inject({
    method: 'POST',
    url: '/api/email/send',
    headers: { 'x-api-key': tenant.apiKey },
    payload: { ...validSend, ...fields },
  });
  if (res.statusCode !== 200) throw new Error(`send answered ${res.statusCode}: ${res.body}`);
  return (res.json() as { id: string }).id;
}
