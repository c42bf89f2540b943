// Dashboard sign-in through app.inject on every database: sign-up that tells nothing, the session that
// starts at the emailed link, cookies, CSRF, reset links, the log-in limits, closed sign-up, and one
// account never reaching another's data.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoginLimits } from '../src/accounts/login-limits.js';
import { PasswordHasher } from '../src/accounts/passwords.js';
import { ManualClock } from '../src/clock.js';
import {
  browserOf,
  mailedToken as mailedTo,
  postSignup,
  sessionCookieOf as cookieOf,
  deviceCookieOf,
  setCookieOf,
  signUpAndVerify,
  type DashboardBrowser as Browser,
} from './helpers/dashboard-signup.js';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, type TestEnv } from './helpers/services.js';

const PASSWORD = 'correct horse battery';

describe.each(databaseKinds)('dashboard sign-in on $name', (kind) => {
  let env: TestEnv;
  afterEach(() => env?.close());

  const start = async (opts: Parameters<typeof startTestEnv>[1] = {}) => {
    env = await startTestEnv(kind, opts);
    return env;
  };

  const signup = (email: string): Promise<Browser> => signUpAndVerify(env, email, PASSWORD);

  const as = (b: Browser, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, csrf = true) =>
    env.app.inject({
      method,
      url,
      headers: { cookie: b.cookie, ...(csrf ? { 'x-csrf-token': b.csrf } : {}) },
      ...(payload ? { payload } : {}),
    });

  /** The token of the newest link to `path` mailed to the account's signup address. */
  const mailedToken = async (accountId: string, path: string): Promise<string> => {
    const account = await env.account(accountId);
    return mailedTo(env, account!.email, path);
  };

  it('starts an HttpOnly SameSite=Lax session at the verification link, its id stored only as a hash', async () => {
    await start();
    const res = await postSignup(env, 'New.User@Example.org', PASSWORD);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ status: 'check_inbox' });
    // No session at sign-up: nothing to log in with until the inbox is proven.
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await env.sessions()).toEqual([]);
    const token = await mailedTo(env, 'new.user@example.org', '/verify-email');
    const verified = await env.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { token } });
    expect(verified.statusCode).toBe(200);
    expect(verified.headers['cache-control']).toBe('no-store');
    expect(setCookieOf(verified, 'txmail_session')).toMatch(
      /^txmail_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/,
    );
    const id = cookieOf(verified).split('=')[1]!;
    const rows = await env.sessions();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id_hash).toBe(createHash('sha256').update(id).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(id);
    const session = (
      await env.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { cookie: cookieOf(verified) },
      })
    ).json();
    expect(session).toMatchObject({
      account: { email: 'new.user@example.org', email_verified: true, plan: 'free', state: 'sandbox' },
      signup: 'open',
    });
    expect(session.csrf_token).toBe((verified.json() as { csrf_token: string }).csrf_token);
    // The link works once; the password chosen at sign-up logs in from now on.
    const again = await env.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { token } });
    expect(again.statusCode).toBe(400);
    expect(again.body).toMatch(/^invalid_token: /);
    const login = await env.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'new.user@example.org', password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
  });

  it('marks the cookie Secure when the public URL is https', async () => {
    await start({ env: { TXMAIL_PUBLIC_URL: 'https://mail.example.org' } });
    expect((await postSignup(env, 'a@example.org', PASSWORD)).statusCode).toBe(202);
    const token = await mailedTo(env, 'a@example.org', '/verify-email');
    expect(token).toHaveLength(43);
    const res = await env.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { token } });
    expect(setCookieOf(res, 'txmail_session')).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    expect(setCookieOf(res, 'txmail_device')).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
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

  it('lets an account made before sign-up links carried the password prove its address from its session, choosing its password, and only then run the guided test', async () => {
    await start();
    // As sign-up made accounts before: unverified, with a password, logged in, with a key.
    const made = await env.services.accounts.create({
      email: 'alice@example.org',
      password: PASSWORD,
      emailVerified: false,
    });
    const oldKey = await env.services.accounts.createApiKey(made.id, 'before');
    const before = browserOf(
      await env.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'alice@example.org', password: PASSWORD },
      }),
    );
    const early = await as(before, 'POST', '/api/guided-test');
    expect(early.statusCode).toBe(403);
    expect(early.body).toMatch(/^email_not_verified: /);
    expect((await as(before, 'POST', '/api/auth/resend-verification')).statusCode).toBe(202);
    // The link asks for the password: whoever set the old one may be the one who asked.
    const token = await mailedToken(made.id, '/reset-password');
    const confirm = () =>
      env.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        payload: { token, password: 'the chosen password' },
      });
    expect((await confirm()).statusCode).toBe(200);
    expect((await confirm()).body).toMatch(/^invalid_token: /);
    // The first proof of the address ends what came before it: the session, the key, the old password.
    expect((await as(before, 'GET', '/api/account')).body).toMatch(/^session_expired: /);
    const withKey = await env.app.inject({
      method: 'GET',
      url: '/api/account',
      headers: { 'x-api-key': oldKey.key },
    });
    expect(withKey.body).toMatch(/^invalid_api_key: /);
    const login = (password: string) =>
      env.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'alice@example.org', password },
      });
    expect((await login(PASSWORD)).statusCode).toBe(401);
    const loggedIn = await login('the chosen password');
    expect(loggedIn.json().account).toMatchObject({ id: made.id, email_verified: true });
    const alice = browserOf(loggedIn);
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

  it('refuses a verification link mailed without a password before, so it proves nothing by itself', async () => {
    await start();
    const made = await env.services.accounts.create({
      email: 'alice@example.org',
      password: PASSWORD,
      emailVerified: false,
    });
    const token = 'a'.repeat(43);
    // Such links were mailed to logged-in, unverified accounts, and verified the account as it stood.
    await env.plantLink({
      token_hash: createHash('sha256').update(token).digest('hex'),
      account_id: made.id,
      purpose: 'verify_email',
      created_at: Date.now(),
      expires_at: Date.now() + 3600_000,
      used_at: null,
      password_hash: null,
    });
    const res = await env.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { token } });
    expect(res.body).toMatch(/^invalid_token: /);
    expect((await env.account(made.id))!.email_verified_at).toBeNull();
  });

  it('runs the guided test at most 10 times an hour, counting the mail sent at sign-up', async () => {
    const clock = new ManualClock(Date.now());
    await start({ clock });
    const alice = await signup('alice@example.org');
    for (let i = 0; i < 9; i++) expect((await as(alice, 'POST', '/api/guided-test')).statusCode).toBe(200);
    const limited = await as(alice, 'POST', '/api/guided-test');
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toMatch(
      /^rate_limit_exceeded: the guided test runs while txmail has sent this account fewer than 10 mails of its own in the last hour \(guided tests, sign-in links, invitations and notices all count\); try it later$/,
    );
    expect(limited.headers['retry-after']).toBe('3600');
    clock.advance(3600_001);
    expect((await as(alice, 'POST', '/api/guided-test')).statusCode).toBe(200);
  });

  it('answers a sign-up byte for byte the same whether the address has an account, a sign-up waiting, or nothing', async () => {
    await start();
    await signup('owner@example.org');
    expect((await postSignup(env, 'waiting@example.org', PASSWORD)).statusCode).toBe(202);
    const answers = [];
    for (const [email, ip] of [
      ['owner@example.org', '198.51.100.1'],
      ['nobody@example.org', '198.51.100.2'],
      ['waiting@example.org', '198.51.100.3'],
      ['OWNER@Example.org', '198.51.100.4'],
    ] as const) {
      const res = await postSignup(env, email, 'some other password', ip);
      // The date changes from one answer to the next; nothing else may.
      const { date: _date, ...headers } = res.headers;
      answers.push({ status: res.statusCode, headers, body: res.rawPayload.toString('base64') });
    }
    expect(answers[0]).toEqual({
      status: 202,
      headers: expect.objectContaining({ 'cache-control': 'no-store' }),
      body: Buffer.from('{"status":"check_inbox"}').toString('base64'),
    });
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    expect(answers[0]!.headers['set-cookie']).toBeUndefined();
    expect(await env.sessions()).toHaveLength(1);
  });

  it('mails the owner of an address that has an account that someone tried to sign up, through the queue, and changes nothing', async () => {
    await start();
    const owner = await signup('owner@example.org');
    const tokensBefore = await env.accountTokens();
    expect((await postSignup(env, 'Owner@example.org', 'the intruder password')).statusCode).toBe(202);
    const mails = (await env.messagesOf(owner.accountId)).filter(
      (m) => m.subject === 'Someone tried to sign up for txmail with your address',
    );
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail).toMatchObject({
      status: 'queued',
      from_email: 'onboarding@test.mta.txmail.test',
      to_email: 'owner@example.org',
    });
    expect(mail.next_attempt_at).not.toBeNull();
    const events = await env.events(owner.accountId, mail.id);
    expect(events.map((e) => e.type)).toEqual(['email.queued']);
    // A hint to log in or reset, and no link that does anything by itself (no token).
    expect(mail.html).toContain('http://localhost:8080/login');
    expect(mail.html).toContain('http://localhost:8080/forgot-password');
    expect(mail.html).not.toMatch(/token=/);
    expect(await env.accountTokens()).toEqual(tokensBefore);
    // The dashboard tells the owner too, with one notice however many times it happens.
    expect((await postSignup(env, 'owner@example.org', 'the intruder again')).statusCode).toBe(202);
    const notices = (await as(owner, 'GET', '/api/account/notices')).json().data as { kind: string }[];
    expect(notices.map((n) => n.kind)).toEqual(['signup_attempt']);
    // The owner's password still works; the one given at the second sign-up does not.
    const login = (password: string) =>
      env.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'owner@example.org', password },
      });
    expect((await login('the intruder password')).statusCode).toBe(401);
    expect((await login(PASSWORD)).statusCode).toBe(200);
    expect((await as(owner, 'GET', '/api/account')).statusCode).toBe(200);
  });

  it('never offers a link that would replace a password: an unverified account that has one gets the note, and a link mailed for it before is refused', async () => {
    await start();
    // An account with a password and an unverified address: signed up before sign-up links carried the
    // password, or made by the operator unverified. Its owner is logged in and has a key.
    const made = await env.services.accounts.create({
      email: 'owner@example.org',
      password: PASSWORD,
      emailVerified: false,
    });
    const key = await env.services.accounts.createApiKey(made.id, 'mine');
    const login = (password: string) =>
      env.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'owner@example.org', password },
      });
    const owner = browserOf(await login(PASSWORD));
    expect((await postSignup(env, 'owner@example.org', 'the stranger password')).statusCode).toBe(202);
    const mails = await env.mailTo('owner@example.org');
    expect(mails.map((m) => m.subject)).toEqual(['Someone tried to sign up for txmail with your address']);
    expect(mails[0]!.html).toContain('http://localhost:8080/forgot-password');
    expect(mails[0]!.html).not.toMatch(/token=/);
    expect(await env.accountTokens()).toEqual([]);
    // A link an earlier sign-up mailed for this account, carrying a stranger's password, does nothing.
    const token = 'b'.repeat(43);
    await env.plantLink({
      token_hash: createHash('sha256').update(token).digest('hex'),
      account_id: made.id,
      purpose: 'verify_email',
      created_at: Date.now(),
      expires_at: Date.now() + 3600_000,
      used_at: null,
      password_hash: await new PasswordHasher().hash('the stranger password'),
    });
    const used = await env.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { token } });
    expect(used.statusCode).toBe(400);
    expect(used.body).toMatch(/^invalid_token: /);
    expect((await login('the stranger password')).statusCode).toBe(401);
    expect((await login(PASSWORD)).statusCode).toBe(200);
    expect((await as(owner, 'GET', '/api/account')).statusCode).toBe(200);
    const withKey = await env.app.inject({
      method: 'GET',
      url: '/api/account',
      headers: { 'x-api-key': key.key },
    });
    expect(withKey.statusCode).toBe(200);
  });

  it('ends a planted account’s sessions, keys and password when its owner proves the address with a link the planter asked for', async () => {
    await start();
    // A stranger signed up with the owner's address before sign-up links carried the password, logged
    // in and made a key; then asks for a verification link, which lands in the owner's inbox.
    const planted = await env.services.accounts.create({
      email: 'victim@example.org',
      password: 'the stranger password',
      emailVerified: false,
    });
    const key = await env.services.accounts.createApiKey(planted.id, 'planted');
    const login = (password: string) =>
      env.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'victim@example.org', password },
      });
    const stranger = browserOf(await login('the stranger password'));
    expect((await as(stranger, 'POST', '/api/auth/resend-verification')).statusCode).toBe(202);
    // The owner opens it: the link asks for a password, the owner's.
    const token = await mailedTo(env, 'victim@example.org', '/reset-password');
    const confirmed = await env.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token, password: 'the owner password' },
    });
    expect(confirmed.statusCode).toBe(200);
    expect((await as(stranger, 'GET', '/api/account')).body).toMatch(/^session_expired: /);
    const withKey = await env.app.inject({
      method: 'GET',
      url: '/api/account',
      headers: { 'x-api-key': key.key },
    });
    expect(withKey.body).toMatch(/^invalid_api_key: /);
    expect((await login('the stranger password')).statusCode).toBe(401);
    const owner = await login('the owner password');
    expect(owner.json().account).toMatchObject({ id: planted.id, email_verified: true });
  });

  it('never lets a sign-up with somebody else’s address own the account the owner later uses', async () => {
    await start();
    const login = (password: string) =>
      env.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'victim@example.org', password },
      });
    // The attacker signs up first: no session, and the password does not log in (no link used).
    const early = await postSignup(env, 'victim@example.org', 'the attacker password');
    expect(early.headers['set-cookie']).toBeUndefined();
    expect((await login('the attacker password')).body).toBe(
      'invalid_credentials: the email or the password is wrong',
    );
    const attackerLink = await mailedTo(env, 'victim@example.org', '/verify-email');
    // The owner signs up: the link in the inbox now carries the owner's password; the older one is dead.
    expect((await postSignup(env, 'victim@example.org', 'the owner password')).statusCode).toBe(202);
    const ownerLink = await mailedTo(env, 'victim@example.org', '/verify-email');
    expect(ownerLink).not.toBe(attackerLink);
    const stale = await env.app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      payload: { token: attackerLink },
    });
    expect(stale.body).toMatch(/^invalid_token: /);
    const owner = browserOf(
      await env.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { token: ownerLink } }),
    );
    expect((await login('the attacker password')).statusCode).toBe(401);
    expect((await login('the owner password')).statusCode).toBe(200);
    // Signing up again later never replaces the verified password, and its mail carries no link.
    expect((await postSignup(env, 'victim@example.org', 'the attacker again')).statusCode).toBe(202);
    expect((await login('the attacker again')).statusCode).toBe(401);
    expect((await as(owner, 'GET', '/api/account')).statusCode).toBe(200);
    expect(await mailedTo(env, 'victim@example.org', '/verify-email')).toBe(ownerLink);
  });

  it('finishes a sign-up with a reset link too, which proves the address as well: the sign-up link is refused after, and a key made before is revoked', async () => {
    await start();
    const reset = async (email: string, password: string) => {
      const asked = await env.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email },
      });
      expect(asked.statusCode).toBe(202);
      const confirmed = await env.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        payload: { token: await mailedTo(env, email, '/reset-password'), password },
      });
      expect(confirmed.statusCode).toBe(200);
    };
    const login = (email: string, password: string) =>
      env.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    await postSignup(env, 'twice@example.org', 'first password!');
    const first = await mailedTo(env, 'twice@example.org', '/verify-email');
    await reset('twice@example.org', 'reset password!');
    const late = await env.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { token: first } });
    expect(late.statusCode).toBe(400);
    expect(late.body).toMatch(/^invalid_token: /);
    expect((await login('twice@example.org', 'first password!')).statusCode).toBe(401);
    expect((await login('twice@example.org', 'reset password!')).json().account.email_verified).toBe(true);
    // An account signed up before links carried the password, with a key made under that password.
    const planted = await env.services.accounts.create({
      email: 'old@example.org',
      password: 'somebody’s password',
      emailVerified: false,
    });
    const key = await env.services.accounts.createApiKey(planted.id, 'planted');
    await reset('old@example.org', 'the owner password');
    const withKey = await env.app.inject({
      method: 'GET',
      url: '/api/account',
      headers: { 'x-api-key': key.key },
    });
    expect(withKey.body).toMatch(/^invalid_api_key: /);
  });

  it('closes what an unproven password opened when the owner, mailed the note by a sign-up, resets the password: sessions, API keys, remembered browsers', async () => {
    await start();
    // An account sign-up made before links carried the password: someone set a password, logged in
    // and made a key, without ever proving the inbox.
    const planted = await env.services.accounts.create({
      email: 'victim@example.org',
      password: 'the attacker password',
      emailVerified: false,
    });
    const key = await env.services.accounts.createApiKey(planted.id, 'planted');
    const login = (password: string) =>
      env.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'victim@example.org', password },
      });
    const attacker = browserOf(await login('the attacker password'));
    const devices = () => env.loginDevices(planted.id);
    expect(await devices()).toHaveLength(1);
    // The owner signs up: the account has a password, so the owner is mailed the note, not a link…
    expect((await postSignup(env, 'victim@example.org', 'the owner password')).statusCode).toBe(202);
    expect((await login('the owner password')).statusCode).toBe(401);
    // …and follows it to a reset, which proves the address and ends everything before it.
    expect(
      (
        await env.app.inject({
          method: 'POST',
          url: '/api/auth/password-reset',
          payload: { email: 'victim@example.org' },
        })
      ).statusCode,
    ).toBe(202);
    const confirmed = await env.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: {
        token: await mailedTo(env, 'victim@example.org', '/reset-password'),
        password: 'the owner password',
      },
    });
    expect(confirmed.statusCode).toBe(200);
    expect((await as(attacker, 'GET', '/api/account')).body).toMatch(/^session_expired: /);
    const withKey = await env.app.inject({
      method: 'GET',
      url: '/api/account',
      headers: { 'x-api-key': key.key },
    });
    expect(withKey.body).toMatch(/^invalid_api_key: /);
    expect(await devices()).toEqual([]);
    expect((await login('the attacker password')).statusCode).toBe(401);
    expect((await login('the owner password')).json().account).toMatchObject({
      id: planted.id,
      email_verified: true,
    });
  });

  it('lets the operator create an account whose sign-up nobody finished', async () => {
    await start();
    await postSignup(env, 'staff@example.org', 'a stranger password');
    const link = await mailedTo(env, 'staff@example.org', '/verify-email');
    const made = await env.services.accounts.create({
      email: 'staff@example.org',
      password: PASSWORD,
      plan: 'pro',
    });
    expect(made).toMatchObject({ email: 'staff@example.org', plan: 'pro' });
    expect(made.email_verified_at).not.toBeNull();
    expect(
      (await env.app.inject({ method: 'POST', url: '/api/auth/verify', payload: { token: link } })).body,
    ).toMatch(/^invalid_token: /);
    const login = await env.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'staff@example.org', password: PASSWORD },
    });
    expect(login.json().account).toMatchObject({ id: made.id, plan: 'pro', email_verified: true });
    await expect(env.services.accounts.create({ email: 'staff@example.org' })).rejects.toThrow(
      /already exists/,
    );
  });

  it('limits the mail a stranger can make txmail send: sign-ups per IP, links per address', async () => {
    await start();
    // 20 per network and hour; an IPv6 machine is one /64, whichever of its addresses it uses.
    for (let i = 0; i < 20; i++) {
      const res = await postSignup(env, `user${i}@example.org`, PASSWORD, `2001:db8:5:6::${i + 1}`);
      expect(res.statusCode).toBe(202);
    }
    const limited = await postSignup(env, 'user20@example.org', PASSWORD, '2001:db8:5:6:ffff::1');
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toMatch(/^rate_limit_exceeded: too many sign-ups/);
    expect((await postSignup(env, 'user21@example.org', PASSWORD, '2001:db8:5:7::1')).statusCode).toBe(202);
    // Per address the answer never changes, but a sixth mail within the hour is not sent, whether the
    // address has an account or not.
    const subjects = async (email: string) => (await env.mailTo(email)).map((m) => m.subject);
    await signup('owner@example.org');
    for (let i = 0; i < 6; i++) {
      for (const email of ['owner@example.org', 'someone@example.org']) {
        expect((await postSignup(env, email, PASSWORD, `203.0.113.${i}`)).statusCode).toBe(202);
      }
    }
    // The owner's own sign-up used one of the five.
    expect(await subjects('owner@example.org')).toHaveLength(5);
    expect(await subjects('someone@example.org')).toHaveLength(5);
  });

  it('sends one address at most 5 mails an hour whichever kind a stranger asks for: sign-up, reset, verification', async () => {
    await start();
    const subjects = async (email: string) => (await env.mailTo(email)).map((m) => m.subject);
    const reset = async (email: string, ip: string) => {
      const res = await env.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email },
        remoteAddress: ip,
      });
      expect(res.statusCode).toBe(202);
      await env.services.deferredWork.settled();
    };
    // A verified account: its own sign-up's link, then two sign-ups (notes) and two resets.
    await signup('owner@example.org');
    for (let i = 0; i < 2; i++) {
      expect((await postSignup(env, 'owner@example.org', PASSWORD, `203.0.113.${i}`)).statusCode).toBe(202);
      await reset('owner@example.org', `192.0.2.${i}`);
    }
    expect(await subjects('owner@example.org')).toHaveLength(5);
    // Then nothing more, whichever kind, though every answer stays the same.
    expect((await postSignup(env, 'owner@example.org', PASSWORD, '203.0.113.9')).statusCode).toBe(202);
    await reset('OWNER@example.org', '192.0.2.9');
    expect(await subjects('owner@example.org')).toHaveLength(5);
    // An unverified account's links asked for from its session share the same count.
    const made = await env.services.accounts.create({
      email: 'legacy@example.org',
      password: PASSWORD,
      emailVerified: false,
    });
    const legacy = browserOf(
      await env.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'legacy@example.org', password: PASSWORD },
      }),
    );
    expect(legacy.accountId).toBe(made.id);
    for (let i = 0; i < 2; i++) {
      await reset('legacy@example.org', `198.51.100.${i}`);
      expect((await postSignup(env, 'legacy@example.org', PASSWORD, `198.51.100.${i}`)).statusCode).toBe(202);
    }
    expect((await as(legacy, 'POST', '/api/auth/resend-verification')).statusCode).toBe(202);
    expect(await subjects('legacy@example.org')).toHaveLength(5);
    const refused = await as(legacy, 'POST', '/api/auth/resend-verification');
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toMatch(/^rate_limit_exceeded: too many links mailed to this address/);
    expect(await subjects('legacy@example.org')).toHaveLength(5);
  });

  describe('log-in limits', () => {
    /** Log-ins through a trusted proxy: X-Forwarded-For names the client, as behind a load balancer. */
    const login = (email: string, password: string, ip: string, device?: string) =>
      env.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password },
        headers: { 'x-forwarded-for': ip, ...(device ? { cookie: device } : {}) },
      });
    const startBehindProxy = () => start({ env: { TXMAIL_TRUST_PROXY: 'loopback' } });
    /** Fills alice's per-address ceiling from ten networks and the owner network's ceiling across addresses. */
    const flood = async (ownerNetwork: string) => {
      const limits = new LoginLimits(env.services.repos.attemptCounts);
      const now = env.clock.now();
      for (let i = 0; i < 100; i++)
        expect((await limits.take(`198.51.100.${i % 10}`, 'alice@example.org', now)).allowed).toBe(true);
      for (let i = 0; i < 30; i++)
        expect((await limits.take(ownerNetwork, `guess${i}@example.org`, now)).allowed).toBe(true);
    };

    it('remembers the browser after a log-in with a device cookie: HttpOnly, SameSite=Lax, sent only to the log-in route, stored as a hash, kept across log-out', async () => {
      await startBehindProxy();
      const alice = await signup('alice@example.org');
      const first = await login('alice@example.org', PASSWORD, '192.0.2.1');
      const set = setCookieOf(first, 'txmail_device');
      expect(set).toMatch(
        /^txmail_device=[A-Za-z0-9_-]{43}; Path=\/api\/auth\/login; Max-Age=31536000; HttpOnly; SameSite=Lax$/,
      );
      const device = deviceCookieOf(first);
      const id = device.split('=')[1]!;
      const rows = await env.loginDevices(alice.accountId);
      expect(rows.map((r) => r.id_hash)).toContain(createHash('sha256').update(id).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(id);
      // Logging out ends the session only; the next log-in from this browser keeps its id.
      const out = await as(browserOf(first), 'POST', '/api/auth/logout');
      expect(setCookieOf(out, 'txmail_device')).toBeUndefined();
      const again = await login('alice@example.org', PASSWORD, '192.0.2.1', device);
      expect(deviceCookieOf(again)).toBe(device);
    });

    it('lets the owner’s remembered browser log in while a flood holds the address’s ceiling and the owner network’s, and counts its failures apart', async () => {
      await startBehindProxy();
      await signup('alice@example.org');
      await signup('bob@example.org');
      const device = deviceCookieOf(await login('alice@example.org', PASSWORD, '203.0.113.7'));
      const otherBrowser = deviceCookieOf(await login('alice@example.org', PASSWORD, '192.0.2.8'));
      const bobsBrowser = deviceCookieOf(await login('bob@example.org', PASSWORD, '203.0.113.7'));
      await flood('203.0.113.7');
      // Without the cookie, or with one remembered for another address, the ceilings hold…
      expect((await login('alice@example.org', PASSWORD, '203.0.113.7')).statusCode).toBe(429);
      expect((await login('alice@example.org', PASSWORD, '192.0.2.99')).statusCode).toBe(429);
      expect((await login('alice@example.org', PASSWORD, '192.0.2.99', bobsBrowser)).statusCode).toBe(429);
      expect(
        (await login('alice@example.org', PASSWORD, '192.0.2.99', 'txmail_device=' + 'x'.repeat(43)))
          .statusCode,
      ).toBe(429);
      // …while the owner's browser logs in, from the flooded network or any other.
      expect((await login('alice@example.org', PASSWORD, '203.0.113.7', device)).statusCode).toBe(200);
      expect((await login('alice@example.org', PASSWORD, '192.0.2.99', device)).statusCode).toBe(200);
      // The browser's own failures: 10 per 15 minutes, then it too waits, even with the right password…
      for (let i = 0; i < 10; i++)
        expect((await login('alice@example.org', `wrong ${i}`, '192.0.2.99', device)).statusCode).toBe(401);
      const limited = await login('alice@example.org', PASSWORD, '192.0.2.99', device);
      expect(limited.statusCode).toBe(429);
      expect(limited.body).toMatch(/^rate_limit_exceeded: too many failed log-in attempts/);
      // …and no other browser of the owner's does.
      expect((await login('alice@example.org', PASSWORD, '192.0.2.99', otherBrowser)).statusCode).toBe(200);
    });

    it('forgets remembered browsers when the password is changed or reset, remembering anew the browser that changed it', async () => {
      await startBehindProxy();
      const alice = await signup('alice@example.org');
      const a = await login('alice@example.org', PASSWORD, '192.0.2.1');
      const b = deviceCookieOf(await login('alice@example.org', PASSWORD, '192.0.2.2'));
      const changed = await as(browserOf(a), 'POST', '/api/auth/password', {
        current_password: PASSWORD,
        new_password: 'the new password',
      });
      expect(changed.statusCode).toBe(200);
      const renewed = deviceCookieOf(changed);
      expect(setCookieOf(changed, 'txmail_device')).toMatch(/; Path=\/api\/auth\/login; Max-Age=31536000; /);
      expect(renewed).not.toBe(deviceCookieOf(a));
      await flood('192.0.2.1');
      expect((await login('alice@example.org', 'the new password', '192.0.2.2', b)).statusCode).toBe(429);
      expect(
        (await login('alice@example.org', 'the new password', '192.0.2.3', deviceCookieOf(a))).statusCode,
      ).toBe(429);
      expect((await login('alice@example.org', 'the new password', '192.0.2.1', renewed)).statusCode).toBe(
        200,
      );
      // A reset forgets every browser.
      await env.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email: 'alice@example.org' },
      });
      const token = await mailedToken(alice.accountId, '/reset-password');
      await env.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        payload: { token, password: 'the reset password' },
      });
      expect((await login('alice@example.org', 'the reset password', '192.0.2.1', renewed)).statusCode).toBe(
        429,
      );
      expect(await env.loginDevices(alice.accountId)).toEqual([]);
    });

    it('answers a wrong address and a wrong password with one generic error', async () => {
      await startBehindProxy();
      await signup('alice@example.org');
      const unknown = await login('nobody@example.org', PASSWORD, '192.0.2.1');
      const wrong = await login('alice@example.org', 'not the password', '192.0.2.1');
      expect(unknown.statusCode).toBe(401);
      expect(unknown.body).toBe(wrong.body);
      expect(wrong.body).toBe('invalid_credentials: the email or the password is wrong');
      // A sign-up nobody finished has no password: the same answer, whatever password is tried.
      await postSignup(env, 'pending@example.org', PASSWORD);
      expect((await login('pending@example.org', PASSWORD, '192.0.2.1')).body).toBe(wrong.body);
      expect((await login('ALICE@example.org', PASSWORD, '192.0.2.1')).statusCode).toBe(200);
    });

    it('does not let 50 wrong passwords from other networks stop the owner logging in from theirs', async () => {
      await startBehindProxy();
      await signup('alice@example.org');
      // Five networks, ten guesses each (their whole budget for this address), sent five at a time.
      const guesses = Array.from({ length: 50 }, (_, i) => [`198.51.100.${i % 5}`, `wrong ${i}`] as const);
      for (let i = 0; i < guesses.length; i += 5) {
        const batch = await Promise.all(
          guesses.slice(i, i + 5).map(([ip, password]) => login('alice@example.org', password, ip)),
        );
        for (const res of batch) expect(res.statusCode).toBe(401);
      }
      // Each of them is out of guesses now…
      expect((await login('alice@example.org', PASSWORD, '198.51.100.0')).statusCode).toBe(429);
      // …while the owner's network is not.
      expect((await login('alice@example.org', PASSWORD, '203.0.113.7')).statusCode).toBe(200);
    });

    it('stops one network after its 10 failures for an address, even with the right password, and says for how long', async () => {
      await startBehindProxy();
      await signup('alice@example.org');
      await signup('bob@example.org');
      for (let i = 0; i < 10; i++)
        expect((await login('alice@example.org', `wrong ${i}`, '198.51.100.9')).statusCode).toBe(401);
      const limited = await login('alice@example.org', PASSWORD, '198.51.100.9');
      expect(limited.statusCode).toBe(429);
      expect(limited.body).toMatch(/^rate_limit_exceeded: too many failed log-in attempts/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(14 * 60);
      // Any address of the same IPv6 /64 is the same network.
      for (let i = 0; i < 10; i++)
        expect((await login('bob@example.org', `wrong ${i}`, `2001:db8:1:2::${i + 1}`)).statusCode).toBe(401);
      expect((await login('bob@example.org', PASSWORD, '2001:db8:1:2:abcd::9')).statusCode).toBe(429);
      // The network can still log in to another address; the owner elsewhere to this one.
      expect((await login('bob@example.org', PASSWORD, '198.51.100.9')).statusCode).toBe(200);
      expect((await login('alice@example.org', PASSWORD, '203.0.113.7')).statusCode).toBe(200);
    });

    it('holds the per-address ceiling of 100 across networks, and the per-network ceiling of 30 across addresses', async () => {
      const clock = new ManualClock(Date.now());
      await start({ clock, env: { TXMAIL_TRUST_PROXY: 'loopback' } });
      await signup('alice@example.org');
      await signup('bob@example.org');
      // The failures counted as the log-in route counts them (without 100 password hashes' wait).
      const limits = new LoginLimits(env.services.repos.attemptCounts);
      for (let i = 0; i < 100; i++)
        expect((await limits.take(`198.51.100.${i % 10}`, 'alice@example.org', clock.now())).allowed).toBe(
          true,
        );
      const fresh = await login('alice@example.org', PASSWORD, '203.0.113.1');
      expect(fresh.statusCode).toBe(429);
      expect(fresh.body).toMatch(/^rate_limit_exceeded: /);
      // The refusal spent nothing of that network's own budget: it logs in to another address.
      expect((await login('bob@example.org', PASSWORD, '203.0.113.1')).statusCode).toBe(200);
      // Spraying: 30 addresses from one network, then that network is refused for any address.
      for (let i = 0; i < 30; i++)
        expect((await limits.take('192.0.2.50', `guess${i}@example.org`, clock.now())).allowed).toBe(true);
      expect((await login('bob@example.org', PASSWORD, '192.0.2.50')).statusCode).toBe(429);
      expect((await login('bob@example.org', PASSWORD, '192.0.2.51')).statusCode).toBe(200);
      // Windows of 15 minutes.
      clock.advance(15 * 60_000);
      expect((await login('alice@example.org', PASSWORD, '203.0.113.1')).statusCode).toBe(200);
      expect((await login('bob@example.org', PASSWORD, '192.0.2.50')).statusCode).toBe(200);
    });
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

  it('answers a reset request for an address with an account exactly as for one without, having done the same work by then', async () => {
    await start();
    const alice = await signup('alice@example.org');
    // An invited member signs in too, and is mailed its own link.
    expect(
      (await as(alice, 'POST', '/api/members', { email: 'bob@example.org', role: 'viewer' })).statusCode,
    ).toBe(201);
    const invited = await env.app.inject({
      method: 'POST',
      url: '/api/auth/accept-invite',
      payload: { token: await mailedTo(env, 'bob@example.org', '/accept-invite'), password: PASSWORD },
    });
    expect(invited.statusCode, invited.body).toBe(200);
    // Every call to a repository or to the accept batcher (which queues mail), in order.
    const calls: string[] = [];
    const watch = (name: string, target: object) => {
      for (const method of Object.getOwnPropertyNames(Object.getPrototypeOf(target))) {
        const original = (target as Record<string, unknown>)[method];
        if (method === 'constructor' || typeof original !== 'function') continue;
        vi.spyOn(target as Record<string, () => unknown>, method).mockImplementation(function (
          this: unknown,
          ...args: unknown[]
        ) {
          calls.push(`${name}.${method}`);
          return (original as (...a: unknown[]) => unknown).apply(target, args);
        });
      }
    };
    for (const [name, repo] of Object.entries(env.services.repos)) watch(name, repo);
    watch('batcher', env.services.batcher);
    const request = async (email: string) => {
      calls.length = 0;
      await env.services.dashboardAuth.requestPasswordReset(email, '192.0.2.1');
      // Resolved: this is when the route answers.
      const beforeAnswer = [...calls];
      await env.services.deferredWork.settled();
      return { beforeAnswer, after: calls.slice(beforeAnswer.length) };
    };
    const known = await request('alice@example.org');
    const unknown = await request('nobody@example.org');
    const member = await request('bob@example.org');
    expect(known.beforeAnswer).toEqual(unknown.beforeAnswer);
    expect(member.beforeAnswer).toEqual(unknown.beforeAnswer);
    expect(known.beforeAnswer).toEqual(['attemptCounts.takeMany', 'attemptCounts.takeMany']);
    // After the answer: the look-up (accounts, then invited members, as log-in does), and for the
    // account or member only, its link and mail.
    expect(unknown.after).toEqual(['accounts.findByEmail', 'members.findInvitedByEmail']);
    expect(known.after).toEqual(
      expect.arrayContaining(['accounts.findByEmail', 'sessions.createToken', 'batcher.submit']),
    );
    expect(member.after).toEqual(
      expect.arrayContaining([
        'accounts.findByEmail',
        'members.findInvitedByEmail',
        'sessions.createToken',
        'batcher.submit',
      ]),
    );
    vi.restoreAllMocks();
    // Through HTTP: the same status, headers and bytes.
    const answers = [];
    for (const email of ['alice@example.org', 'nobody@example.org', 'bob@example.org']) {
      const res = await env.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email },
      });
      const { date: _date, ...headers } = res.headers;
      answers.push({ status: res.statusCode, headers, body: res.rawPayload.toString('base64') });
    }
    expect(answers[0]).toMatchObject({ status: 202 });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(
      await mailedToken((await env.accountByEmail('alice@example.org'))!.id, '/reset-password'),
    ).toBeTruthy();
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
    await env.services.accounts.create({ email: 'op@example.org', password: PASSWORD });
    // The same refusal for an address that has an account.
    expect((await postSignup(env, 'op@example.org', PASSWORD)).body).toBe(res.body);
    expect((await env.app.inject({ method: 'GET', url: '/api/auth/session' })).json()).toEqual({
      account: null,
      csrf_token: null,
      signup: 'closed',
    });
    const login = await env.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'op@example.org', password: PASSWORD },
    });
    expect(login.json().account.email_verified).toBe(true);
  });

  it('answers bad auth bodies with 400, never 5xx', async () => {
    await start();
    for (const [url, payload] of [
      ['/api/auth/signup', { email: 'not an address', password: PASSWORD }],
      ['/api/auth/signup', { email: 'a@example.org', password: 'short' }],
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
