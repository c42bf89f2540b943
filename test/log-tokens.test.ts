// Logs never hold tokens: at the most talkative level, a request's query string (verification and
// reset links carry their token there, and any client may put a secret in one) and a webhook URL's
// query (customers put their endpoint's secret there) reach no log line. Real HTTP on loopback, with
// every line the process writes captured.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { createServices, type Services } from '../src/services.js';
import { capturedLog } from './helpers/captured-log.js';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';
import { createTenant, validSend } from './helpers/services.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

const TOKEN = 'tok3n5ecretVALUE';

describe.each(databaseKinds)('tokens in URLs on $name', (kind) => {
  let database: TestDatabase;
  let services: Services;
  const log = capturedLog();
  let base = '';
  let healthBase = '';
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    database = await kind.create();
    services = await createServices(
      parseConfig({
        TXMAIL_DATABASE_URL: database.url,
        TXMAIL_HOSTNAME: 'mta.txmail.test',
        TXMAIL_SECRET_KEY: 'k'.repeat(64),
        TXMAIL_BUILD_THREADS: '0',
        TXMAIL_SQLITE_WRITER_THREAD: '0',
        TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true',
      }),
      { logger: log.logger },
    );
    await receiver.start();
  });
  afterAll(async () => {
    await receiver.stop();
    await services.close();
    await database.drop();
  });

  /** The lines since `from` that mention the token in any form a reader could decode. */
  const leaks = (from: number) =>
    log
      .text()
      .slice(from)
      .split('\n')
      .filter(
        (line) =>
          line.includes(TOKEN) || line.includes(encodeURIComponent(TOKEN)) || line.includes('rawPacket'),
      );

  it('writes request paths without their query string, at trace level, on every kind of request', async () => {
    const from = log.text().length;
    const app = services.http();
    const health = services.healthHttp();
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    healthBase = await health.listen({ host: '127.0.0.1', port: 0 });
    try {
      const tenant = await createTenant(services, { plan: 'pro' });
      const key = { 'x-api-key': tenant.apiKey };
      const json = { ...key, 'content-type': 'application/json' };
      const requests: [string, RequestInit?][] = [
        // The dashboard pages the emailed links open.
        [`/verify-email?token=${TOKEN}`],
        [`/reset-password?token=${TOKEN}`],
        // The API: public, authenticated, refused, unknown, malformed, failed validation.
        [
          `/api/auth/verify?token=${TOKEN}`,
          { method: 'POST', body: JSON.stringify({ token: TOKEN }), headers: json },
        ],
        [`/api/emails?token=${TOKEN}`, { headers: key }],
        [`/api/emails?token=${TOKEN}`, { headers: { 'x-api-key': 'txm_nope' } }],
        [`/api/nothing-here?token=${TOKEN}`, { headers: key }],
        [`/api/emails/%zz?token=${TOKEN}`, { headers: key }],
        [`/api/emails?status=nope&token=${TOKEN}`, { headers: key }],
        [
          `/api/email/send/test?token=${TOKEN}`,
          { method: 'POST', body: JSON.stringify(validSend), headers: json },
        ],
        [`/api/email/send/test?token=${TOKEN}`, { method: 'POST', body: '{"from":', headers: json }],
      ];
      for (const [path, init] of requests) await fetch(base + path, init);
      // The health listener of `txmail inbound` and `txmail worker`.
      await fetch(`${healthBase}/healthz?token=${TOKEN}`);
      // A request the HTTP parser refuses (Node reports it with the raw bytes it read).
      await rawRequest(base, `GET /reset-password?token=${TOKEN} HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n`);
      // The absolute form (RFC 9112 §3.2.2), with a password in its user information, and a fragment.
      await rawRequest(
        base,
        `GET http://user:${TOKEN}@evil.example/healthz?token=${TOKEN} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      await rawRequest(base, `GET /healthz#${TOKEN} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    } finally {
      await app.close();
      await health.close();
    }
    // The access log was written, with the paths.
    expect(log.text()).toContain('"url":"/reset-password"');
    expect(log.text()).toContain('"url":"/api/emails"');
    expect(log.text()).toContain('"url":"/healthz"');
    expect(leaks(from)).toEqual([]);
  });

  it('logs a webhook push with its endpoint origin and path, never the query that holds its secret', async () => {
    const from = log.text().length;
    const app = services.http();
    await app.ready();
    try {
      const tenant = await createTenant(services, { plan: 'pro' });
      const created = await app.inject({
        method: 'POST',
        url: '/api/webhooks',
        headers: { 'x-api-key': tenant.apiKey },
        payload: {
          url: `http://127.0.0.1:${receiver.port}/hooks/txmail?secret=${TOKEN}`,
          events: ['email.delivered'],
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json() as { id: string };
      receiver.respond = (_push, index) => (index === 0 ? { status: 200 } : { status: 500, body: 'no' });
      for (let i = 0; i < 2; i++) {
        const pushed = await app.inject({
          method: 'POST',
          url: `/api/webhooks/${id}/test`,
          headers: { 'x-api-key': tenant.apiKey },
        });
        expect(pushed.statusCode, pushed.body).toBe(200);
      }
      expect(receiver.received.map((r) => r.path)).toEqual(Array(2).fill(`/hooks/txmail?secret=${TOKEN}`));
    } finally {
      await app.close();
    }
    expect(log.text()).toContain(`"url":"http://127.0.0.1:${receiver.port}/hooks/txmail"`);
    expect(leaks(from)).toEqual([]);
  });
});

/** Writes `raw` to the server and waits for it to close the connection. */
function rawRequest(base: string, raw: string): Promise<void> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(raw));
    socket.on('error', reject);
    socket.on('close', () => resolve());
    socket.resume();
  });
}
