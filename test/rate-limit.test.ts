// Request rate limits per API key and per account, shared by API processes on PostgreSQL.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { MemoryRateLimitStore } from '../src/db/sqlite/rate-limit-store.js';
import { RateLimiter } from '../src/http/rate-limit.js';
import { gcraStep } from '../src/rate-limit-gcra.js';
import { createServices } from '../src/services.js';
import { databaseKinds } from './helpers/databases.js';
import { sessionCookieOf, signUpAndVerify } from './helpers/dashboard-signup.js';
import { createTenant, startTestEnv, validSend, type TestEnv } from './helpers/services.js';

describe('GCRA', () => {
  it.each([
    // tat, now, rate → allowed, new tat (rate 10/s: 100 ms apart, bursts of 20: 1.9 s of tolerance)
    [0, 1000, 10, true, 1100],
    [1100, 1000, 10, true, 1200],
    [2900, 1000, 10, true, 3000],
    [3000, 1000, 10, false, 3000],
    [3000, 1100, 10, true, 3100],
  ])('tat %d at %d, %d/s: allowed %s, tat %d', (tat, now, rate, allowed, next) => {
    expect(gcraStep(tat, now, rate)).toEqual({ allowed, tat: next });
  });

  it('allows a burst of twice the rate, then one request per interval, and reports the tightest bucket', async () => {
    const limiter = new RateLimiter(
      { perKey: 100, perAccount: { free: 5, pro: 100, scale: 500 } },
      new MemoryRateLimitStore(),
    );
    const results = [];
    for (let i = 0; i < 11; i++) results.push(await limiter.take('k1', { id: 'a1', plan: 'free' }, 10_000));
    expect(results.map((r) => r.allowed)).toEqual([...Array(10).fill(true), false]);
    expect(results[0]).toMatchObject({ scope: 'account', limit: 10, remaining: 9 });
    expect(results[10]).toMatchObject({ scope: 'account', remaining: 0, retryAfterSeconds: 1 });
    expect((await limiter.take('k1', { id: 'a1', plan: 'free' }, 10_200)).allowed).toBe(true);
  });
});

describe.each(databaseKinds)('rate limits on $name', (kind) => {
  let env: TestEnv;
  const clock = new ManualClock();
  beforeAll(async () => {
    env = await startTestEnv(kind, {
      clock,
      env: { TXMAIL_RATE_LIMIT: '5', TXMAIL_ACCOUNT_RATE_LIMITS: 'free=3' },
    });
  });
  afterAll(() => env.close());

  const list = (apiKey: string) =>
    env.app.inject({ method: 'GET', url: '/api/emails', headers: { 'x-api-key': apiKey } });

  it('reports RateLimit headers and answers 429 with Retry-After past the key’s burst', async () => {
    const tenant = await createTenant(env.services, { plan: 'pro', domain: 'acme.example' });
    const responses = [];
    for (let i = 0; i < 11; i++) responses.push(await list(tenant.apiKey));
    expect(responses.map((r) => r.statusCode)).toEqual([...Array(10).fill(200), 429]);
    expect(responses.map((r) => r.headers['ratelimit-remaining'])).toEqual([
      '9',
      '8',
      '7',
      '6',
      '5',
      '4',
      '3',
      '2',
      '1',
      '0',
      '0',
    ]);
    expect(responses.every((r) => r.headers['ratelimit-limit'] === '10')).toBe(true);
    const last = responses.at(-1)!;
    expect(last.body).toMatch(/^rate_limit_exceeded: this API key is limited to 10 requests/);
    expect(last.headers['retry-after']).toBe('1');
    // A fifth of a second later, one more request fits.
    clock.advance(200);
    expect((await list(tenant.apiKey)).statusCode).toBe(200);
  });

  it('limits the account across all its keys by its plan', async () => {
    const tenant = await createTenant(env.services, { plan: 'free', domain: 'acme.example' });
    const second = await env.services.accounts.createApiKey(tenant.accountId, 'second');
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await list(tenant.apiKey)).statusCode, (await list(second.key)).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    expect((await list(second.key)).body).toMatch(
      /^rate_limit_exceeded: this account \(free plan\) is limited/,
    );
  });

  it("keeps the dashboard's reading apart from the servers' budget, and its changes within it", async () => {
    const email = `owner-${kind.name}@example.org`;
    const password = 'a long enough password';
    const browser = await signUpAndVerify(env, email, password);
    const key = await env.services.accounts.createApiKey(browser.accountId, 'server');
    const read = (cookie: string) =>
      env.app.inject({ method: 'GET', url: '/api/emails', headers: { cookie } });
    // The owner browses the log: none of it is taken from the account's budget (free: bursts of 6)…
    const browsing = [];
    for (let i = 0; i < 6; i++) browsing.push((await read(browser.cookie)).statusCode);
    expect(browsing).toEqual(Array(6).fill(200));
    // …which the servers' key still has whole, and spends.
    const sending = [];
    for (let i = 0; i < 7; i++) sending.push((await list(key.key)).statusCode);
    expect(sending).toEqual([...Array(6).fill(200), 429]);
    // With the budget spent the owner still reads, but what a session changes (a send) takes from it.
    expect((await read(browser.cookie)).statusCode).toBe(200);
    const send = await env.app.inject({
      method: 'POST',
      url: '/api/email/send/test',
      headers: { cookie: browser.cookie, 'x-csrf-token': browser.csrf },
      payload: validSend,
    });
    expect(send.statusCode, send.body).toBe(429);
    expect(send.body).toMatch(/^rate_limit_exceeded: this account \(free plan\) is limited/);
    // Every session of the account shares one bucket for reading (a key's burst: 10): a second log-in
    // buys no more. 6 + 1 + 1 (the refused send) taken so far.
    const again = await env.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password },
    });
    const second = sessionCookieOf(again);
    expect([(await read(second)).statusCode, (await read(browser.cookie)).statusCode]).toEqual([200, 200]);
    const over = await read(second);
    expect(over.statusCode).toBe(429);
    expect(over.body).toMatch(/^rate_limit_exceeded: this account's dashboard is limited to 10 requests/);
  });

  it.runIf(kind.name === 'postgres')('shares the buckets between API processes', async () => {
    const tenant = await createTenant(env.services, { plan: 'pro', domain: 'acme.example' });
    const other = await createServices(env.services.config, {
      clock,
      logger: pino({ level: 'silent' }),
      migrate: false,
    });
    const otherApp = other.http();
    try {
      const statuses = [];
      for (let i = 0; i < 6; i++) {
        statuses.push((await list(tenant.apiKey)).statusCode);
        const res = await otherApp.inject({
          method: 'GET',
          url: '/api/emails',
          headers: { 'x-api-key': tenant.apiKey },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
    } finally {
      await otherApp.close();
      await other.close();
    }
  });
});
