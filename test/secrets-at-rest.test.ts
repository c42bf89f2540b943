// Secrets never stored or logged in plain text: API keys, session ids and device cookies (hashed),
// passwords (scrypt), DKIM private keys, webhook secrets and the mailed sign-in links (sealed), CSRF
// tokens (derived, never stored), the master key. The whole database and every log line are searched for them.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { createServices, type Services } from '../src/services.js';
import { deviceCookieOf, mailedToken, signUpAndVerify } from './helpers/dashboard-signup.js';
import { capturedLog } from './helpers/captured-log.js';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';
import { validSend } from './helpers/services.js';

const MASTER_KEY = 'm'.repeat(64);
const PASSWORD = 'correct horse battery staple';

/** Every row of every table as text. */
async function dumpDatabase(services: Services): Promise<string> {
  const db = services.db.kysely;
  const tables =
    services.db.dialect === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows
      : (
          await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema()`.execute(db)
        ).rows;
  let text = '';
  for (const { name } of tables) {
    const rows = (await sql`select * from ${sql.table(name)}`.execute(db)).rows;
    text += `${name}\n${JSON.stringify(rows)}\n`;
  }
  return text;
}

describe.each(databaseKinds)('secrets at rest on $name', (kind) => {
  let database: TestDatabase;
  let services: Services;
  const log = capturedLog();

  beforeAll(async () => {
    database = await kind.create();
    services = await createServices(
      parseConfig({
        TXMAIL_DATABASE_URL: database.url,
        TXMAIL_HOSTNAME: 'mta.txmail.test',
        TXMAIL_SECRET_KEY: MASTER_KEY,
        TXMAIL_BUILD_THREADS: '0',
        TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true',
      }),
      { logger: log.logger },
    );
  });
  afterAll(async () => {
    await services.close();
    await database.drop();
  });

  it('keeps no API key, session, password, DKIM key, webhook secret or master key readable in the database or the logs', async () => {
    const account = await services.accounts.create({
      email: 'owner@acme.example',
      password: PASSWORD,
      plan: 'pro',
    });
    const { key } = await services.accounts.createApiKey(account.id, 'prod');
    const dkim = await services.dkim.create('acme.example', account.id);
    // The private key as it is held decrypted in memory, to look for in the dump.
    const signing = await services.dkim.signingKey('acme.example', account.id);
    const privatePem = signing!.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const app = services.http();
    await app.ready();
    for (const url of ['/api/email/send/test', '/api/emails', '/api/account']) {
      await app.inject({
        method: url.includes('send') ? 'POST' : 'GET',
        url,
        headers: { 'x-api-key': key },
        ...(url.includes('send') ? { payload: validSend } : {}),
      });
    }
    await app.inject({ method: 'GET', url: '/api/emails', headers: { 'x-api-key': key + 'x' } });
    // A webhook signing secret, and a dashboard session (its id is the cookie's value).
    const { secret: webhookSecret } = await services.webhooks.create(account, {
      url: 'http://127.0.0.1:9/hook',
    });
    const browser = await signUpAndVerify({ app, services }, 'dashboard@acme.example', PASSWORD);
    const sessionId = browser.cookie.split('=')[1]!;
    // The verification link's token, as mailed (its mail is still queued: its content not yet removed).
    const linkToken = await mailedToken({ app, services }, 'dashboard@acme.example', '/verify-email');
    const csrf = browser.csrf;
    await app.inject({
      method: 'GET',
      url: '/api/account',
      headers: { cookie: `txmail_session=${sessionId}` },
    });
    // The device cookie a log-in gives the browser, presented again at the next log-in.
    const deviceCookie = deviceCookieOf(
      await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'dashboard@acme.example', password: PASSWORD },
      }),
    );
    await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'dashboard@acme.example', password: PASSWORD },
      headers: { cookie: deviceCookie },
    });
    const deviceId = deviceCookie.split('=')[1]!;
    await app.close();

    const dump = await dumpDatabase(services);
    // The dump is real: it holds what is meant to be there.
    expect(dump).toContain('owner@acme.example');
    expect(dump).toContain(dkim.public_key);
    const pemBody = privatePem.split('\n').slice(1, -2).join('');
    for (const [what, secret] of [
      ['API key', key],
      ['API key body', key.slice(8)],
      ['password', PASSWORD],
      ['DKIM private key', pemBody.slice(0, 64)],
      ['master key', MASTER_KEY],
      ['webhook secret', webhookSecret],
      ['webhook secret key', webhookSecret.slice('whsec_'.length)],
      ['session id', sessionId],
      ['CSRF token', csrf],
      ['device cookie', deviceId],
      ['mailed sign-in link', linkToken],
    ] as const) {
      expect(dump.includes(secret), `${what} in the database`).toBe(false);
      expect(log.text().includes(secret), `${what} in the logs`).toBe(false);
    }
    expect(log.text()).toContain('"url":"/api/emails"'); // the access logs were written
  });
});
