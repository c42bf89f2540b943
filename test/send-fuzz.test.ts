// Thousands of random and mutated requests: none may produce a 5xx, a non-text error or a crash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { randomString, randomValue, rng } from './helpers/fuzz.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

function randomBody(r: () => number): string {
  const choice = r();
  if (choice < 0.4) {
    // A valid request with one or two fields mutated, dropped or added.
    const body: Record<string, unknown> = { ...validSend };
    const fields = ['from', 'to', 'subject', 'message', 'cc', '__proto__', 'constructor'];
    for (let i = 0; i < 1 + Math.floor(r() * 2); i++) {
      const f = fields[Math.floor(r() * fields.length)]!;
      if (r() < 0.2) delete body[f];
      else body[f] = r() < 0.6 ? `${String(validSend.to)}${randomString(r)}` : randomValue(r);
    }
    return JSON.stringify(body);
  }
  if (choice < 0.7) return JSON.stringify(randomValue(r));
  if (choice < 0.85) {
    const valid = JSON.stringify(validSend);
    const cut = Math.floor(r() * valid.length);
    return valid.slice(0, cut) + randomString(r) + valid.slice(cut + Math.floor(r() * 5));
  }
  return randomString(r);
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/jsonx',
  '',
];

describe.each(databaseKinds)('send route fuzzing on $name', (kind) => {
  let env: TestEnv;
  let tenant: Tenant;
  beforeAll(async () => {
    env = await startTestEnv(kind);
    tenant = await createTenant(env.services, { domain: 'acme.example' });
  });
  afterAll(() => env.close());

  it('answers 3,000 random requests without a 5xx, each error one line of text', async () => {
    const r = rng(20261122);
    const statuses = new Map<number, number>();
    for (let i = 0; i < 3000; i++) {
      const contentType =
        r() < 0.85 ? 'application/json' : CONTENT_TYPES[Math.floor(r() * CONTENT_TYPES.length)]!;
      const headers: Record<string, string> = { 'x-api-key': tenant.apiKey };
      if (contentType) headers['content-type'] = contentType;
      if (r() < 0.05) headers['idempotency-key'] = randomString(r).replace(/[^\x20-\x7e]/g, '') || 'k';
      const res = await env.app.inject({
        method: 'POST',
        url: r() < 0.5 ? '/api/email/send' : '/api/email/send/test',
        headers,
        payload: randomBody(r),
      });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      expect(res.statusCode, `request ${i}: ${res.body}`).toBeLessThan(500);
      if (res.statusCode >= 400) {
        expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(res.body).toMatch(/^[a-z_]+: [^\n]+$/);
      }
    }
    // The generator must reach both sides of the validator, or it proves little.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(50);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(1000);
  });
});
