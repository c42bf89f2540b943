// Tenant isolation on every route that takes an id: another account's message, domain, webhook, event,
// suppression or API key answers 404, exactly as one that does not exist, and nothing changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

describe.each(databaseKinds)('cross-account access on $name', (kind) => {
  let env: TestEnv;
  let owner: Tenant;
  let intruder: Tenant;
  const ids = { email: '', domain: '', webhook: '', event: '', key: '' };
  const suppressed = 'gone@recipient.example';

  beforeAll(async () => {
    env = await startTestEnv(kind, { env: { TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true' } });
    owner = await createTenant(env.services, { plan: 'scale', domain: 'acme.example' });
    intruder = await createTenant(env.services, { plan: 'scale', domain: 'intruder.example' });
    const as = (t: Tenant, method: 'POST', url: string, payload: object) =>
      env.app.inject({ method, url, headers: { 'x-api-key': t.apiKey }, payload });
    ids.email = (await as(owner, 'POST', '/api/email/send', validSend)).json<{ id: string }>().id;
    const domain = await as(owner, 'POST', '/api/domains', { name: 'second.example' });
    expect(domain.statusCode, domain.body).toBe(201);
    ids.domain = domain.json<{ id: string }>().id;
    const hook = await as(owner, 'POST', '/api/webhooks', { url: 'http://127.0.0.1:9/hook' });
    expect(hook.statusCode, hook.body).toBe(201);
    ids.webhook = hook.json<{ id: string }>().id;
    const events = await env.events(owner.accountId, ids.email);
    ids.event = events[0]!.id;
    expect((await as(owner, 'POST', '/api/suppressions', { address: suppressed })).statusCode).toBe(201);
    ids.key = owner.apiKeyId;
  });
  afterAll(() => env.close());

  const routes: [string, 'GET' | 'POST' | 'PATCH' | 'DELETE', () => string, object?][] = [
    ['a message', 'GET', () => `/api/emails/${ids.email}`],
    ['a domain', 'GET', () => `/api/domains/${ids.domain}`],
    ['a domain (verify)', 'POST', () => `/api/domains/${ids.domain}/verify`, {}],
    ['a domain (delete)', 'DELETE', () => `/api/domains/${ids.domain}`],
    ['a domain (expiry)', 'PATCH', () => `/api/domains/${ids.domain}`, { expire_after: 600 }],
    ['a webhook', 'GET', () => `/api/webhooks/${ids.webhook}`],
    ['a webhook (change)', 'PATCH', () => `/api/webhooks/${ids.webhook}`, { enabled: false }],
    ['a webhook (delete)', 'DELETE', () => `/api/webhooks/${ids.webhook}`],
    ['a webhook’s deliveries', 'GET', () => `/api/webhooks/${ids.webhook}/deliveries`],
    ['a webhook’s secret', 'GET', () => `/api/webhooks/${ids.webhook}/secret`],
    ['a webhook (rotate)', 'POST', () => `/api/webhooks/${ids.webhook}/rotate-secret`, {}],
    ['a webhook (test)', 'POST', () => `/api/webhooks/${ids.webhook}/test`, {}],
    ['a webhook (replay)', 'POST', () => `/api/webhooks/${ids.webhook}/replay`, { event_id: ids.event }],
    ['an event (replay)', 'POST', () => `/api/events/${ids.event}/replay`, {}],
    ['a suppression (delete)', 'DELETE', () => `/api/suppressions/${encodeURIComponent(suppressed)}`],
  ];

  it.each(routes)('answers 404 for %s of another account (%s)', async (_what, method, url, payload) => {
    const res = await env.app.inject({
      method,
      url: url(),
      headers: { 'x-api-key': intruder.apiKey },
      ...(payload ? { payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.body).toMatch(/^not_found: /);
  });

  it('left everything of the owner as it was', async () => {
    const get = (url: string) =>
      env.app.inject({ method: 'GET', url, headers: { 'x-api-key': owner.apiKey } });
    expect((await get(`/api/emails/${ids.email}`)).statusCode).toBe(200);
    const domain = await get(`/api/domains/${ids.domain}`);
    expect(domain.statusCode).toBe(200);
    expect(domain.json()).toMatchObject({ expire_after: null });
    const hook = await get(`/api/webhooks/${ids.webhook}`);
    expect(hook.statusCode).toBe(200);
    expect(hook.json()).toMatchObject({ enabled: true });
    const list = await get(`/api/suppressions?address=${encodeURIComponent(suppressed)}`);
    expect(list.json<{ data: unknown[] }>().data).toHaveLength(1);
    const deliveries = await get(`/api/webhooks/${ids.webhook}/deliveries`);
    expect(deliveries.json<{ data: unknown[] }>().data).toEqual([]);
  });
});
