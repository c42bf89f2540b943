// Ids in a path are at most 64 characters, refused with a 400 before any look-up, however long
// (http/id-params.ts); a suppressed address of up to 320 characters reaches its route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, type Tenant, type TestEnv } from './helpers/services.js';

const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;

describe('ids in paths', () => {
  let env: TestEnv;
  let t: Tenant;
  beforeAll(async () => {
    env = await startTestEnv(sqlite);
    t = await createTenant(env.services);
  });
  afterAll(async () => env.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    env.app.inject({ method, url, headers: { 'x-api-key': t.apiKey }, ...(payload ? { payload } : {}) });

  it.each([65, 101, 500, 961, 5000])(
    'refuses an id of %i characters with a 400, on every method',
    async (n) => {
      const id = 'a'.repeat(n);
      for (const [method, url] of [
        ['GET', `/api/emails/${id}`],
        ['DELETE', `/api/webhooks/${id}`],
        ['POST', `/api/webhooks/${id}/rotate-secret`],
      ] as const) {
        const res = await call(method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(400);
        expect(res.body).toBe(`validation_error: "id" must be at most 64 characters (it has ${n})`);
      }
    },
  );

  it('quotes at most 200 characters of a path that matches no route', async () => {
    const res = await call('GET', `/api/nothing/${'a'.repeat(3000)}`);
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe(
      `not_found: no route GET /api/nothing/${'a'.repeat(200 - '/api/nothing/'.length)}…`,
    );
  });

  it('looks up an id of 64 characters, and takes a long suppressed address to its route', async () => {
    expect((await call('GET', `/api/emails/${'a'.repeat(64)}`)).statusCode).toBe(404);
    const address = `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.example`;
    const added = await call('POST', '/api/suppressions', { address });
    expect(added.statusCode, added.body).toBeLessThan(300);
    const removed = await call('DELETE', `/api/suppressions/${encodeURIComponent(address)}`);
    expect(removed.statusCode, removed.body).toBe(204);
    // Past any address's length, the route itself says so (it once matched no route at 961 characters).
    const long = await call('DELETE', `/api/suppressions/${'%61'.repeat(1000)}%40x.example`);
    expect(long.body).toMatch(/^(validation_error|not_found): (?!no route)/);
  });
});
