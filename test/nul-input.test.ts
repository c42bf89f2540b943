// U+0000 anywhere a request carries text is a 400 naming the field, on both databases (http/no-nul.ts).
// On PostgreSQL a search and a webhook's description holding one answered 500 (text refuses it); on
// SQLite the search matched everything before it. The fields that refused it before (the message, a
// suppression's reason) now answer in the same words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

describe.each(databaseKinds)('NUL characters in requests on $name', (kind) => {
  let env: TestEnv;
  let t: Tenant;
  let webhookId: string;

  beforeAll(async () => {
    env = await startTestEnv(kind, { env: { TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true' } });
    t = await createTenant(env.services, { domain: 'acme.example' });
    const made = await call('POST', '/api/webhooks', { url: 'http://127.0.0.1:9/in' });
    expect(made.statusCode, made.body).toBe(201);
    webhookId = (made.json() as { id: string }).id;
  });
  afterAll(async () => env.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    env.app.inject({
      method,
      url,
      headers: { 'x-api-key': t.apiKey },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  const cases: [string, () => ReturnType<typeof call>, string][] = [
    ['a search of the log', () => call('GET', '/api/emails?q=%00'), '"q"'],
    ['a search with text around it', () => call('GET', '/api/emails?q=a%00b'), '"q"'],
    [
      "a webhook's description",
      () => call('POST', '/api/webhooks', { url: 'http://127.0.0.1:9/two', description: 'a\u0000b' }),
      '"description"',
    ],
    [
      "a webhook's description changed",
      () => call('PATCH', `/api/webhooks/${webhookId}`, { description: 'a\u0000b' }),
      '"description"',
    ],
    [
      'the HTML of a send',
      () => call('POST', '/api/email/send', { ...validSend, message: '<p>a\u0000</p>' }),
      '"message"',
    ],
    [
      'a search of the suppression list',
      () => call('GET', '/api/suppressions?starts_with=a%00'),
      '"starts_with"',
    ],
    [
      "a suppression's reason",
      () => call('POST', '/api/suppressions', { address: 'x@dest.example', reason: 'r\u0000' }),
      '"reason"',
    ],
  ];

  it.each(cases)('refuses one in %s with a 400 naming the field', async (_what, request, field) => {
    const res = await request();
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toBe(`validation_error: ${field} must not contain the NUL character (U+0000)`);
  });

  it.each([
    ["an API key's name", () => call('POST', '/api/api-keys', { name: 'x\uD800y' }), '"name"'],
    [
      'the subject of a send',
      () => call('POST', '/api/email/send', { ...validSend, subject: 'a\uDC00' }),
      '"subject"',
    ],
  ])(
    'refuses a lone surrogate in %s with a 400 naming the field, never storing it damaged',
    async (_what, request, field) => {
      const res = await request();
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).toBe(
        `validation_error: ${field} holds half of a UTF-16 surrogate pair, not a character`,
      );
    },
  );

  it('answers a small body of deeply nested arrays with a 400 on the send route and on log-in (not a 500)', async () => {
    const payload = '['.repeat(7000) + ']'.repeat(7000);
    for (const [url, key] of [
      ['/api/email/send', true],
      ['/api/auth/login', false],
    ] as const) {
      const res = await env.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': t.apiKey } : {}) },
        payload,
      });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
    }
  });

  it('stored nothing of those requests, and still answers the same requests without the character', async () => {
    expect((await call('GET', '/api/emails?q=ab')).statusCode).toBe(200);
    const listed = (await call('GET', '/api/webhooks')).json() as { data: unknown[] } | unknown[];
    expect(Array.isArray(listed) ? listed : listed.data).toHaveLength(1);
    expect((await call('POST', '/api/email/send', validSend)).statusCode).toBe(200);
  });
});
