// The webhooks resource on SQLite and PostgreSQL: creation rules (plan limits, URL safety), secrets
// (sealed at rest, revealed, rotated), changes, deletion and tenant isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { createTenant, startTestEnv, type Tenant, type TestEnv } from './helpers/services.js';

interface WebhookJson {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  secret?: string;
  previous_secret_expires_at?: string | null;
}

describe.each(databaseKinds)('webhooks API on $name', (kind) => {
  let env: TestEnv;
  const dns = new TestDnsServer();

  beforeAll(async () => {
    await dns.start();
    dns.add('hooks.customer.example', 'A', '93.184.216.34');
    dns.add('rebind.example', 'A', '127.0.0.1');
    dns.add('mixed.example', 'A', '93.184.216.34', '10.0.0.7');
    dns.add('v6private.example', 'AAAA', 'fd00::1');
    dns.add('v4compat.example', 'AAAA', '::127.0.0.1');
    dns.add('nat64.example', 'AAAA', '64:ff9b::a9fe:a9fe');
    env = await startTestEnv(kind, { env: { TXMAIL_DNS_SERVERS: dns.address } });
  });
  afterAll(async () => {
    await env.close();
    await dns.stop();
  });

  const call = (tenant: Tenant, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    env.app.inject({ method, url, headers: { 'x-api-key': tenant.apiKey }, ...(payload ? { payload } : {}) });
  const create = async (tenant: Tenant, body: object = {}) => {
    const res = await call(tenant, 'POST', '/api/webhooks', {
      url: 'https://hooks.customer.example/tx',
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as WebhookJson;
  };

  it('creates an endpoint with the default events and a whsec_ secret shown once, sealed at rest', async () => {
    const tenant = await createTenant(env.services, { plan: 'pro' });
    const created = await create(tenant, { description: 'production' });
    expect(created).toMatchObject({
      url: 'https://hooks.customer.example/tx',
      events: ['email.delivered', 'email.bounced', 'email.complained'],
      enabled: true,
      disabled_reason: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // Not in the list or the record, and not in the database in plain text.
    const list = (await call(tenant, 'GET', '/api/webhooks')).json() as { data: WebhookJson[] };
    expect(list.data.map((w) => w.id)).toEqual([created.id]);
    expect(list.data[0]!.secret).toBeUndefined();
    const one = (await call(tenant, 'GET', `/api/webhooks/${created.id}`)).json() as WebhookJson;
    expect(one.secret).toBeUndefined();
    const row = await env.webhook(tenant.accountId, created.id);
    if (!row) throw new Error(`webhook ${created.id} not stored`);
    expect(JSON.stringify(row)).not.toContain(created.secret!.slice(6));
    expect(row.secret).toMatch(/^v1:/);
    const revealed = (await call(tenant, 'GET', `/api/webhooks/${created.id}/secret`)).json() as {
      secret: string;
    };
    expect(revealed.secret).toBe(created.secret);
  });

  it('subscribes to the optional events when asked, and refuses unknown ones', async () => {
    const tenant = await createTenant(env.services, { plan: 'pro' });
    const w = await create(tenant, { events: ['email.delivery_delayed', 'email.failed'] });
    expect(w.events).toEqual(['email.delivery_delayed', 'email.failed']);
    for (const events of [['email.opened'], [], 'email.delivered', ['email.delivered', 'email.delivered']]) {
      const res = await call(tenant, 'POST', '/api/webhooks', {
        url: 'https://hooks.customer.example/',
        events,
      });
      expect(res.statusCode, JSON.stringify(events)).toBe(400);
      expect(res.body).toMatch(/^validation_error: /);
    }
    // In a person's words, naming what would do (not Ajv's "must be equal to one of the allowed values").
    const unknown = await call(tenant, 'POST', '/api/webhooks', {
      url: 'https://hooks.customer.example/',
      events: ['email.opened'],
    });
    expect(unknown.body).toMatch(/^validation_error: "events\.0" must be one of email\.\w+, .*email\.failed/);
    const twice = await call(tenant, 'POST', '/api/webhooks', {
      url: 'https://hooks.customer.example/',
      events: ['email.delivered', 'email.delivered'],
    });
    expect(twice.body).toBe('validation_error: "events" lists the same value twice (items 0 and 1)');
    const nothing = await call(tenant, 'PATCH', `/api/webhooks/${w.id}`, {});
    expect(nothing.body).toBe('validation_error: the body must name at least one field to change');
  });

  it('refuses Free accounts and endpoints beyond the plan with 403 plan_limit naming the plan that allows more', async () => {
    const free = await createTenant(env.services, { plan: 'free' });
    const refused = await call(free, 'POST', '/api/webhooks', { url: 'https://hooks.customer.example/' });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toMatch(/^text\/plain/);
    expect(refused.body).toBe('plan_limit: the free plan allows 0 webhooks; the pro plan allows 3');

    const pro = await createTenant(env.services, { plan: 'pro' });
    for (let i = 0; i < 3; i++) await create(pro);
    const fourth = await call(pro, 'POST', '/api/webhooks', { url: 'https://hooks.customer.example/' });
    expect(fourth.statusCode).toBe(403);
    expect(fourth.body).toBe('plan_limit: the pro plan allows 3 webhooks; the scale plan allows 10');

    const scale = await createTenant(env.services, { plan: 'scale' });
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        call(scale, 'POST', '/api/webhooks', { url: 'https://hooks.customer.example/' }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(10);
    expect(results.filter((r) => r.statusCode === 403)[0]!.body).toBe(
      'plan_limit: the scale plan allows 10 webhooks; delete one to add another',
    );
  });

  it.each([
    ['http://hooks.customer.example/', 'must start with https://'],
    ['https://127.0.0.1/hook', '127.0.0.1'],
    ['https://10.1.2.3/hook', '10.1.2.3'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['https://[::1]/hook', '::1'],
    ['https://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1'],
    ['https://[::127.0.0.1]/', '::7f00:1'],
    ['https://[64:ff9b::10.0.0.1]/hook', '64:ff9b::a00:1'],
    ['https://[2002:a9fe:a9fe::1]/hook', '2002:a9fe:a9fe::1'],
    ['https://v4compat.example/hook', 'v4compat.example resolves to ::127.0.0.1'],
    ['https://nat64.example/hook', 'nat64.example resolves to 64:ff9b::a9fe:a9fe'],
    ['https://rebind.example/hook', 'rebind.example resolves to 127.0.0.1'],
    ['https://mixed.example/hook', 'mixed.example resolves to 10.0.0.7'],
    ['https://v6private.example/hook', 'fd00::1'],
    ['https://does-not-exist.example/hook', 'does not resolve'],
    ['not a url', 'is not an absolute URL'],
  ])('refuses %s when private networks are not allowed', async (url, why) => {
    const tenant = await createTenant(env.services, { plan: 'pro' });
    const res = await call(tenant, 'POST', '/api/webhooks', { url });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toMatch(/^validation_error: "url" /);
    expect(res.body).toContain(why);
  });

  it('changes URL, events and enabled; refuses an unsafe URL on change; deletes', async () => {
    const tenant = await createTenant(env.services, { plan: 'pro' });
    const w = await create(tenant);
    const patched = await call(tenant, 'PATCH', `/api/webhooks/${w.id}`, {
      url: 'https://hooks.customer.example/v2',
      events: ['email.failed'],
      enabled: false,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      url: 'https://hooks.customer.example/v2',
      events: ['email.failed'],
      enabled: false,
      disabled_reason: 'disabled by the account',
    });
    const reenabled = await call(tenant, 'PATCH', `/api/webhooks/${w.id}`, { enabled: true });
    expect(reenabled.json()).toMatchObject({ enabled: true, disabled_reason: null });
    const unsafe = await call(tenant, 'PATCH', `/api/webhooks/${w.id}`, { url: 'https://127.0.0.1/' });
    expect(unsafe.statusCode).toBe(400);
    expect((await call(tenant, 'PATCH', `/api/webhooks/${w.id}`, {})).statusCode).toBe(400);
    expect((await call(tenant, 'PATCH', `/api/webhooks/${w.id}`, { secret: 'x' })).statusCode).toBe(400);

    const del = await call(tenant, 'DELETE', `/api/webhooks/${w.id}`);
    expect(del.statusCode).toBe(204);
    expect((await call(tenant, 'GET', `/api/webhooks/${w.id}`)).statusCode).toBe(404);
    expect((await call(tenant, 'DELETE', `/api/webhooks/${w.id}`)).statusCode).toBe(404);
  });

  it('rotates the secret and keeps the old one signing for 24 hours', async () => {
    const tenant = await createTenant(env.services, { plan: 'pro' });
    const w = await create(tenant);
    const before = Date.now();
    const rotated = await call(tenant, 'POST', `/api/webhooks/${w.id}/rotate-secret`);
    expect(rotated.statusCode).toBe(200);
    const body = rotated.json() as { secret: string; previous_secret_expires_at: string };
    expect(body.secret).toMatch(/^whsec_/);
    expect(body.secret).not.toBe(w.secret);
    const expires = Date.parse(body.previous_secret_expires_at);
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3600_000 - 1000);
    expect(expires - before).toBeLessThanOrEqual(24 * 3600_000 + 5000);
    const one = (await call(tenant, 'GET', `/api/webhooks/${w.id}`)).json() as WebhookJson;
    expect(one.previous_secret_expires_at).toBe(body.previous_secret_expires_at);
    // Which secrets sign is proven end to end in webhooks-delivery.test.ts.
  });

  it("answers 404 for another account's endpoint on every route", async () => {
    const owner = await createTenant(env.services, { plan: 'pro' });
    const other = await createTenant(env.services, { plan: 'pro' });
    const w = await create(owner);
    const routes: ['GET' | 'POST' | 'PATCH' | 'DELETE', string, object?][] = [
      ['GET', `/api/webhooks/${w.id}`],
      ['PATCH', `/api/webhooks/${w.id}`, { enabled: false }],
      ['DELETE', `/api/webhooks/${w.id}`],
      ['GET', `/api/webhooks/${w.id}/secret`],
      ['POST', `/api/webhooks/${w.id}/rotate-secret`],
      ['POST', `/api/webhooks/${w.id}/test`],
      ['GET', `/api/webhooks/${w.id}/deliveries`],
      ['POST', `/api/webhooks/${w.id}/replay`, { event_id: w.id }],
      ['GET', '/api/webhooks/not-a-uuid'],
    ];
    for (const [method, url, payload] of routes) {
      const res = await call(other, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.body).toMatch(/^not_found: /);
    }
    expect(((await call(other, 'GET', '/api/webhooks')).json() as { data: unknown[] }).data).toEqual([]);
    // Untouched for its owner.
    expect((await call(owner, 'GET', `/api/webhooks/${w.id}`)).json()).toMatchObject({ enabled: true });
  });

  it('refuses unauthenticated calls', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/webhooks' });
    expect(res.statusCode).toBe(401);
  });
});
