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

  it.each([65, 101, 500])('refuses an id of %i characters with a 400, on every method', async (n) => {
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
  });

  it('looks up an id of 64 characters, and takes a long suppressed address to its route', async () => {
    expect((await call('GET', `/api/emails/${'a'.repeat(64)}`)).statusCode).toBe(404);
    const address = `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.example`;
    const added = await call('POST', '/api/suppressions', { address });
    expect(added.statusCode, added.body).toBeLessThan(300);
    const removed = await call('DELETE', `/api/suppressions/${encodeURIComponent(address)}`);
    expect(removed.statusCode, removed.body).toBe(204);
  });
});
