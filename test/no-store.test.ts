// The answers that carry a secret or a message's content tell caches not to keep them (Cache-Control:
// no-store), as the dashboard's own secret-bearing answers already did: a webhook's signing secret (on
// creation, revealed, rotated), a message's detail with its HTML, and its bytes as sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, sendAccepted, startTestEnv, type Tenant, type TestEnv } from './helpers/services.js';

const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;

describe('answers that carry secrets or content', () => {
  let env: TestEnv;
  let t: Tenant;
  beforeAll(async () => {
    env = await startTestEnv(sqlite, { env: { TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true' } });
    t = await createTenant(env.services, { domain: 'acme.example' });
  });
  afterAll(async () => env.close());

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    env.app.inject({ method, url, headers: { 'x-api-key': t.apiKey }, ...(payload ? { payload } : {}) });

  it('are marked no-store', async () => {
    const made = await call('POST', '/api/webhooks', { url: 'http://127.0.0.1:9/in' });
    expect(made.statusCode, made.body).toBe(201);
    const id = (made.json() as { id: string }).id;
    const secret = await call('GET', `/api/webhooks/${id}/secret`);
    const rotated = await call('POST', `/api/webhooks/${id}/rotate-secret`);
    const email = await sendAccepted(env, t);
    await env.keepRaw(t.accountId, email, Buffer.from('Subject: x\r\n\r\ncode 123456\r\n'), Date.now());
    const detail = await call('GET', `/api/emails/${email}`);
    const raw = await call('GET', `/api/emails/${email}/raw`);
    for (const res of [made, secret, rotated, detail, raw]) {
      expect(res.statusCode, res.body).toBeLessThan(300);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    // A list without secrets or content is not marked.
    expect((await call('GET', '/api/webhooks')).headers['cache-control']).toBeUndefined();
  });
});
