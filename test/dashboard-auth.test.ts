// Dashboard sign-in through app.inject on every database: cookies, CSRF, verification and reset links,
// the log-in rate limit, closed sign-up, and one account never reaching another's data.
import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, type TestEnv } from './helpers/services.js';

const PASSWORD = 'correct horse battery';

interface Browser {
  cookie: string;
  csrf: string;
  accountId: string;
}

function cookieOf(res: LightMyRequestResponse): string {
  const set = res.headers['set-cookie'];
  const header = Array.isArray(set) ? set[0]! : set!;
  return header.split(';')[0]!;
}

describe.each(databaseKinds)('dashboard sign-in on $name', (kind) => {
  let env: TestEnv;
  afterEach(() => env?.close());

  const start = async (opts: Parameters<typeof startTestEnv>[1] = {}) => {
    env = await startTestEnv(kind, opts);
    return env;
  };

  const signup = async (email: string): Promise<Browser> => {
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email, password: PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json() as { account: { id: string }; csrf_token: string };
    return { cookie: cookieOf(res), csrf: body.csrf_token, accountId: body.account.id };
  };

  const as = (b: Browser, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, csrf = true) =>
    env.app.inject({
      method,
      url,
      headers: { cookie: b.cookie, ...(csrf ? { 'x-csrf-token': b.csrf } : {}) },
      ...(payload ? { payload } : {}),
    });

  /** The token of the newest link mailed to the account (the message is in its log like any other). */
  const mailedToken = async (accountId: string, path: string): Promise<string> => {
    const rows = await env.services.db.kysely
      .selectFrom('messages')
      .select(['html', 'from_email'])
      .where('account_id', '=', accountId)
      .orderBy('created_at', 'desc')
      .execute();
    const row = rows.find((r) => r.html.includes(path));
    expect(row?.from_email).toBe('onboarding@test.mta.txmail.test');
    return new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`).exec(row!.html)![1]!;
  };

  it('signs up into an HttpOnly SameSite=Lax session whose id is stored only as a hash', async () => {
    await start();
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: 'New.User@Example.org', password: PASSWORD },
    });
    expect(res.statusCode).toBe(201);
    const set = String(res.headers['set-cookie']);
    expect(set).toMatch(
      /^txmail_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/,
    );
    const id = cookieOf(res).split('=')[1]!;
    const rows = await env.services.db.kysely.selectFrom('sessions').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id_hash).toBe(createHash('sha256').update(id).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(id);
    const session = (
      await env.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie: cookieOf(res) } })
    ).json();
    expect(session).toMatchObject({
      account: { email: 'new.user@example.org', email_verified: false, plan: 'free', state: 'sandbox' },
      signup: 'open',
    });
    expect(session.csrf_token).toBe((res.json() as { csrf_token: string }).csrf_token);
  });

  it('marks the cookie Secure when the public URL is https', async () => {
    await start({ env: { TXMAIL_PUBLIC_URL: 'https://mail.example.org' } });
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: 'a@example.org', password: PASSWORD },
    });
    expect(String(res.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    const token = await mailedToken((res.json() as { account: { id: string } }).account.id, '/verify-email');
    expect(token).toHaveLength(43);
  });

  it('serves the API to the session, and refuses state changes without its CSRF token', async () => {
    await start();
    const alice = await signup('alice@example.org');
    expect((await as(alice, 'GET', '/api/account', undefined, false)).statusCode).toBe(200);
    for (const csrf of [undefined, 'x'.repeat(43)]) {
      const res = await env.app.inject({
        method: 'POST',
        url: '/api/api-keys',
        headers: { cookie: alice.cookie, ...(csrf ? { 'x-csrf-token': csrf } : {}) },
        payload: { name: 'ci' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.body).toMatch(/^csrf_token_invalid: /);
    }
    const created = await as(alice, 'POST', '/api/api-keys', { name: 'ci' });
    expect(created.statusCode).toBe(201);
    const key = (created.json() as { key: string }).key;
    const listed = (await as(alice, 'GET', '/api/api-keys')).json() as {
      data: { name: string; prefix: string }[];
    };
    expect(listed.data).toEqual([
      expect.objectContaining({ name: 'ci', prefix: key.slice(0, 10), last_used_at: null }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(key);
    // The new key works from a server, exactly as before sessions existed.
    const sent = await env.app.inject({
      method: 'POST',
      url: '/api/email/send/test',
      headers: { 'x-api-key': key },
      payload: { from: 'a@alice.example', to: 'b@dest.example', subject: 'hi', message: '<p>hi</p>' },
    });
    expect(sent.statusCode).toBe(200);
    // …but cannot manage keys.
    const minted = await env.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { 'x-api-key': key },
      payload: {},
    });
    expect(minted.statusCode).toBe(403);
    expect(minted.body).toMatch(/^session_required: /);
  });

  it('keeps API key semantics: no key and no cookie is missing_api_key, a dead cookie is session_expired', async () => {
    await start();
    const none = await env.app.inject({ method: 'GET', url: '/api/account' });
    expect(none.body).toMatch(/^missing_api_key: /);
    const dead = await env.app.inject({
      method: 'GET',
      url: '/api/account',
      headers: { cookie: 'txmail_session=' + 'a'.repeat(43) },
    });
    expect(dead.statusCode).toBe(401);
    expect(dead.body).toMatch(/^session_expired: /);
  });

  it('judges a request with an API key by the key alone, whatever cookie comes with it', async () => {
    await start();
    const alice = await signup('alice@example.org');
    const bob = await createTenant(env.services);
    const withBoth = (headers: Record<string, string>) =>
      env.app.inject({ method: 'GET', url: '/api/account', headers: { cookie: alice.cookie, ...headers } });
    const asBob = await withBoth({ 'x-api-key': bob.apiKey });
    expect(asBob.json().email).toBe(bob.email);
    const fromBrowser = await withBoth({ 'x-api-key': bob.apiKey, origin: 'https://app.example' });
    expect(fromBrowser.statusCode).toBe(403);
    expect(fromBrowser.body).toMatch(/^browser_request_refused: /);
    expect((await withBoth({ 'x-api-key': 'txm_wrong' })).body).toMatch(/^invalid_api_key: /);
  });

  it("never lets one account reach another account's data", async () => {
    await start();
    const alice = await signup('alice@example.org');
    const bob = await signup('bob@example.org');
    const aliceKey = (await as(alice, 'POST', '/api/api-keys', { name: 'a' })).json() as { id: string };
    const aliceMail = await mailedToken(alice.accountId, '/verify-email');
    expect(aliceMail).toBeTruthy();
    const [aliceMessage] = (await as(alice, 'GET', '/api/emails')).json().data as { id: string }[];
    expect((await as(bob, 'GET', `/api/emails/${aliceMessage!.id}`)).statusCode).toBe(404);
    expect((await as(bob, 'GET', '/api/emails')).json().data).toHaveLength(1);
    expect((await as(bob, 'DELETE', `/api/api-keys/${aliceKey.id}`)).statusCode).toBe(404);
    expect((await as(bob, 'GET', '/api/api-keys')).json().data).toEqual([]);
    // Bob's CSRF token does not unlock Alice's session.
    const mixed = await env.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { cookie: alice.cookie, 'x-csrf-token': bob.csrf },
      payload: {},
    });
    expect(mixed.body).toMatch(/^csrf_token_invalid: /);
    expect((await as(alice, 'DELETE', `/api/api-keys/${aliceKey.id}`)).statusCode).toBe(204);
  });

  it('verifies the signup address once, and only then runs the guided test', async () => {
    await start();
    const alice = await signup('alice@example.org');
    const early = await as(alice, 'POST', '/api/guided-test');
    expect(early.statusCode).toBe(403);
    expect(early.body).toMatch(/^email_not_verified: /);
    const token = await mailedToken(alice.accountId, '/verify-email');
    const verify = () => env.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { token } });
    expect((await verify()).json()).toEqual({ email_verified: true });
    const again = await verify();
    expect(again.statusCode).toBe(400);
    expect(again.body).toMatch(/^invalid_token: /);
    const test = await as(alice, 'POST', '/api/guided-test');
    expect(test.statusCode).toBe(200);
    const { id, to, from } = test.json() as { id: string; to: string; from: string };
    expect({ to, from }).toEqual({ to: 'alice@example.org', from: 'onboarding@test.mta.txmail.test' });
    const detail = (await as(alice, 'GET', `/api/emails/${id}`)).json() as {
      status: string;
      events: { type: string }[];
    };
    expect(detail.status).toBe('queued');
    expect(detail.events.map((e) => e.type)).toEqual(['email.queued']);
  });

  it('runs the guided test at most 10 times an hour, counting the mail sent at sign-up', async () => {
    const clock = new ManualClock(Date.now());
    await start({ clock });
    const alice = await signup('alice@example.org');
    await env.app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { token: await mailedToken(alice.accountId, '/verify-email') },
    });
    for (let i = 0; i < 9; i++) expect((await as(alice, 'POST', '/api/guided-test')).statusCode).toBe(200);
    const limited = await as(alice, 'POST', '/api/guided-test');
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toMatch(/^rate_limit_exceeded: /);
    clock.advance(3600_001);
    expect((await as(alice, 'POST', '/api/guided-test')).statusCode).toBe(200);
  });

  it('limits the mail a stranger can make txmail send: sign-ups per IP, links per address', async () => {
    await start();
    const signupFrom = (i: number, ip: string) =>
      env.app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        payload: { email: `user${i}@example.org`, password: PASSWORD },
        remoteAddress: ip,
      });
    for (let i = 0; i < 20; i++) expect((await signupFrom(i, '198.51.100.1')).statusCode).toBe(201);
    const limited = await signupFrom(20, '198.51.100.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toMatch(/^rate_limit_exceeded: too many sign-ups/);
    expect((await signupFrom(21, '198.51.100.2')).statusCode).toBe(201);
    // Reset links: the answer never changes, but a sixth mail within the hour is not sent.
    const account = await env.services.repos.accounts.findByEmail('user21@example.org');
    for (let i = 0; i < 7; i++) {
      const res = await env.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email: 'user21@example.org' },
        remoteAddress: `203.0.113.${i}`,
      });
      expect(res.statusCode).toBe(202);
    }
    const resets = await env.services.db.kysely
      .selectFrom('messages')
      .select('id')
      .where('account_id', '=', account!.id)
      .where('subject', '=', 'Reset your txmail password')
      .execute();
    expect(resets).toHaveLength(5);
  });

  it('limits failed log-ins per address and per IP with one generic error, even for the right password after', async () => {
    await start();
    await signup('alice@example.org');
    await signup('bob@example.org');
    const login = (email: string, password: string, ip = '192.0.2.1') =>
      env.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password },
        remoteAddress: ip,
      });
    const unknown = await login('nobody@example.org', PASSWORD);
    const wrong = await login('alice@example.org', 'not the password');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);
    expect(wrong.body).toBe('invalid_credentials: the email or the password is wrong');
    const ok = await login('ALICE@example.org', PASSWORD, '192.0.2.99');
    expect(ok.statusCode).toBe(200);
    // Per address: ten failures from ten places lock the address, not the places.
    for (let i = 0; i < 10; i++)
      expect((await login('alice@example.org', `wrong ${i}`, `198.51.100.${i}`)).statusCode).toBe(401);
    const limited = await login('alice@example.org', PASSWORD, '203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toMatch(/^rate_limit_exceeded: /);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login('bob@example.org', PASSWORD, '203.0.113.7')).statusCode).toBe(200);
    // Per IP: one place guessing across many addresses is stopped too.
    for (let i = 0; i < 10; i++)
      expect((await login(`guess${i}@example.org`, 'x', '203.0.113.50')).statusCode).toBe(401);
    expect((await login('bob@example.org', PASSWORD, '203.0.113.50')).statusCode).toBe(429);
  });

  it('shares the log-in limit between two servers on one database, even for guesses sent at once', async () => {
    await start();
    const other = await startTestEnv(kind, { database: env.database });
    try {
      await signup('alice@example.org');
      const urls: string[] = [];
      for (const app of [env.app, other.app]) urls.push(await app.listen({ host: '127.0.0.1', port: 0 }));
      const login = (url: string, password: string) =>
        fetch(`${url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'alice@example.org', password }),
        });
      const guesses = await Promise.all(
        Array.from({ length: 30 }, (_, i) => login(urls[i % 2]!, `wrong guess ${i}`)),
      );
      const statuses = guesses.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 401)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(20);
      // The right password is refused now on both servers, and the answer says for how long.
      for (const url of urls) {
        const res = await login(url, PASSWORD);
        expect(res.status).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
      }
    } finally {
      await other.close();
    }
  });

  it('resets the password with a single-use one-hour link and logs out every session', async () => {
    const clock = new ManualClock(Date.now());
    await start({ clock });
    const alice = await signup('alice@example.org');
    const request = (email: string) =>
      env.app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email } });
    const known = await request('alice@example.org');
    const unknown = await request('nobody@example.org');
    expect([known.statusCode, unknown.statusCode]).toEqual([202, 202]);
    expect(known.body).toBe(unknown.body);
    const token = await mailedToken(alice.accountId, '/reset-password');
    const confirm = (t: string, password: string) =>
      env.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        payload: { token: t, password },
      });
    expect((await confirm(token, 'short')).body).toMatch(/^validation_error: /);
    expect((await confirm(token, 'a brand new password')).statusCode).toBe(200);
    expect((await confirm(token, 'another new password')).body).toMatch(/^invalid_token: /);
    expect((await as(alice, 'GET', '/api/account')).body).toMatch(/^session_expired: /);
    const login = await env.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'alice@example.org', password: 'a brand new password' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().account.email_verified).toBe(true);
    // A link older than an hour is refused.
    await request('alice@example.org');
    const late = await mailedToken(alice.accountId, '/reset-password');
    clock.advance(3600_000 + 1);
    expect((await confirm(late, 'yet another password')).body).toMatch(/^invalid_token: /);
  });

  it('slides the session expiry while used, and ends it on log-out', async () => {
    const clock = new ManualClock(Date.now());
    await start({ clock });
    const alice = await signup('alice@example.org');
    for (let day = 0; day < 40; day += 10) {
      clock.advance(10 * 86_400_000);
      const res = await as(alice, 'GET', '/api/account');
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['set-cookie'])).toMatch(/Max-Age=2592000/);
    }
    clock.advance(31 * 86_400_000);
    expect((await as(alice, 'GET', '/api/account')).statusCode).toBe(401);
    const bob = await signup('bob@example.org');
    expect((await as(bob, 'POST', '/api/auth/logout', undefined, false)).statusCode).toBe(403);
    const out = await as(bob, 'POST', '/api/auth/logout');
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^txmail_session=; Path=\/; Max-Age=0/);
    expect((await as(bob, 'GET', '/api/account')).body).toMatch(/^session_expired: /);
  });

  it('changes the password and logs out the other sessions', async () => {
    await start();
    const first = await signup('alice@example.org');
    const login = await env.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'alice@example.org', password: PASSWORD },
    });
    const second: Browser = {
      cookie: cookieOf(login),
      csrf: login.json().csrf_token,
      accountId: first.accountId,
    };
    expect(
      (
        await as(second, 'POST', '/api/auth/password', {
          current_password: 'wrong one!',
          new_password: 'x'.repeat(12),
        })
      ).statusCode,
    ).toBe(401);
    const changed = await as(second, 'POST', '/api/auth/password', {
      current_password: PASSWORD,
      new_password: 'x'.repeat(12),
    });
    expect(changed.statusCode).toBe(200);
    expect((await as(first, 'GET', '/api/account')).statusCode).toBe(401);
    expect((await as(second, 'GET', '/api/account')).statusCode).toBe(200);
  });

  it('refuses sign-up when TXMAIL_SIGNUP=closed, while operator accounts still log in', async () => {
    await start({ env: { TXMAIL_SIGNUP: 'closed' } });
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { email: 'a@example.org', password: PASSWORD },
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toMatch(/^signup_closed: /);
    expect((await env.app.inject({ method: 'GET', url: '/api/auth/session' })).json()).toEqual({
      account: null,
      csrf_token: null,
      signup: 'closed',
    });
    await env.services.accounts.create({ email: 'op@example.org', password: PASSWORD });
    const login = await env.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'op@example.org', password: PASSWORD },
    });
    expect(login.json().account.email_verified).toBe(true);
  });

  it('answers bad auth bodies with 400, never 5xx', async () => {
    await start();
    const tenant = await createTenant(env.services);
    for (const [url, payload] of [
      ['/api/auth/signup', { email: 'not an address', password: PASSWORD }],
      ['/api/auth/signup', { email: 'a@example.org', password: 'short' }],
      ['/api/auth/signup', { email: tenant.email, password: PASSWORD }],
      ['/api/auth/login', { email: 'a@example.org' }],
      ['/api/auth/verify', { token: 'nope' }],
      ['/api/auth/password-reset/confirm', { token: 'nope', password: PASSWORD }],
      ['/api/auth/login', [1, 2]],
    ] as const) {
      const res = await env.app.inject({ method: 'POST', url, payload: payload as object });
      expect(res.statusCode, `${url} ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
    }
  });
});
