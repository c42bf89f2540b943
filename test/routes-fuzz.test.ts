// Every JSON route of the API, as listed by its own OpenAPI document, fuzzed with random bodies, path
// parameters and query strings, by an API key and by a dashboard session: never a 5xx, every error one
// line of text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpAndVerify } from './helpers/dashboard-signup.js';
import { databaseKinds } from './helpers/databases.js';
import { randomString, randomValue, rng } from './helpers/fuzz.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

/** encodeURIComponent, with lone surrogates (which it refuses) replaced. */
const enc = (s: string) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '?'));

interface Operation {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  fields: string[];
}

describe.each(databaseKinds)('all routes fuzzed on $name', (kind) => {
  let env: TestEnv;
  let tenant: Tenant;
  let operations: Operation[];
  let session: { cookie: string; csrf: string };
  const realIds: string[] = [];

  beforeAll(async () => {
    env = await startTestEnv(kind, { env: { TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true' } });
    tenant = await createTenant(env.services, { plan: 'scale', domain: 'acme.example' });
    const doc = (await env.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: { properties?: object } }> } }>
      >;
    };
    operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method: method.toUpperCase() as Operation['method'],
        path,
        fields: Object.keys(op.requestBody?.content['application/json']?.schema.properties ?? {}),
      })),
    );
    session = await signUpAndVerify(env, 'fuzz@acme.example', 'correct horse battery');
    const sent = await env.app.inject({
      method: 'POST',
      url: '/api/email/send',
      headers: { 'x-api-key': tenant.apiKey },
      payload: validSend,
    });
    realIds.push((sent.json() as { id: string }).id);
  });
  afterAll(() => env.close());

  it('lists every resource of the API', () => {
    const paths = new Set(operations.map((o) => o.path));
    for (const p of [
      '/api/email/send',
      '/api/domains/{id}',
      '/api/webhooks/{id}',
      '/api/suppressions',
      '/api/api-keys',
      '/api/auth/login',
      '/api/account',
    ])
      expect(paths.has(p), p).toBe(true);
    expect(operations.length).toBeGreaterThan(25);
  });

  it('answers random requests to every route without a 5xx, each error one line of text', async () => {
    const r = rng(20261123);
    const statuses = new Map<number, number>();
    for (const op of operations) {
      for (let i = 0; i < 40; i++) {
        const param = () =>
          enc(r() < 0.3 ? realIds[0]! : r() < 0.5 ? crypto.randomUUID() : randomString(r) || 'x');
        let url = op.path.replace(/\{[^}]+\}/g, param);
        if (r() < 0.3) url += `?${enc(randomString(r) || 'q')}=${enc(randomString(r))}`;
        const body: Record<string, unknown> = {};
        for (const f of op.fields) if (r() < 0.7) body[f] = randomValue(r);
        if (r() < 0.2) body[randomString(r) || 'extra'] = randomValue(r);
        const useSession = r() < 0.4;
        const headers: Record<string, string> = useSession
          ? { cookie: session.cookie, ...(r() < 0.8 ? { 'x-csrf-token': session.csrf } : {}) }
          : { 'x-api-key': tenant.apiKey };
        const hasBody =
          op.method === 'POST' || op.method === 'PATCH' || (op.method === 'DELETE' && r() < 0.3);
        const res = await env.app.inject({
          method: op.method,
          url,
          headers,
          ...(hasBody
            ? {
                payload: r() < 0.1 ? randomString(r) : JSON.stringify(r() < 0.15 ? randomValue(r) : body),
                headers: { ...headers, 'content-type': 'application/json' },
              }
            : {}),
        });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        expect(res.statusCode, `${op.method} ${url}: ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400) {
          expect(res.headers['content-type'], `${op.method} ${url}`).toBe('text/plain; charset=utf-8');
          expect(res.body, `${op.method} ${url}`).toMatch(/^[a-z_]+: [^\n]+$/);
        }
      }
    }
    // Both sides of the validators were reached.
    expect([...statuses.entries()].filter(([s]) => s < 300).reduce((a, [, n]) => a + n, 0)).toBeGreaterThan(
      50,
    );
    expect(statuses.get(400) ?? 0).toBeGreaterThan(200);
  });
});
