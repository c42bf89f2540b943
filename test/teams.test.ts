// Teams through app.inject on every database (docs/design.md §2): invitations, the role table applied
// to every route, two-factor sign-in (enrolment, log-in, replay, recovery codes, the owner's
// requirement), sessions per member, and the audit log of every change.
import type { Kysely } from 'kysely';
import { newId } from '../src/ids.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PasswordHasher, verifyPassword } from '../src/accounts/passwords.js';
import { totpCode } from '../src/accounts/totp.js';
import { ManualClock } from '../src/clock.js';
import { migrate, migratorFor, openDatabase } from '../src/db/database.js';
import { ASSIGNABLE_ROLES, PUBLIC, ROLE_PERMISSIONS, ROUTE_RULES, ruleFor } from '../src/http/permissions.js';
import {
  browserOf,
  mailedToken,
  postSignup,
  setCookieOf,
  signUpAndVerify,
  type DashboardBrowser,
} from './helpers/dashboard-signup.js';
import { databaseKinds } from './helpers/databases.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { startTestEnv, type TestEnv } from './helpers/services.js';
import { testFacade } from './helpers/test-env.js';
import { messageRow } from './helpers/message-row.js';

const PASSWORD = 'correct horse battery';

describe.each(databaseKinds)('teams on $name', (kind) => {
  let env: TestEnv;
  let clock: ManualClock;
  const dns = new TestDnsServer();
  beforeAll(async () => {
    await dns.start();
    dns.add('hooks.example.net', 'A', '93.184.216.34');
  });
  afterAll(() => dns.stop());
  afterEach(() => env?.close());

  const start = async () => {
    clock = new ManualClock(Date.UTC(2026, 10, 24, 9, 0, 0));
    env = await startTestEnv(kind, {
      clock,
      env: { TXMAIL_PUBLIC_URL: 'https://txmail.example', TXMAIL_DNS_SERVERS: dns.address },
    });
  };

  const as = (
    b: DashboardBrowser,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    env.app.inject({
      method,
      url,
      headers: { cookie: b.cookie, 'x-csrf-token': b.csrf },
      ...(payload ? { payload } : {}),
    });

  /** The owner invites `email` as `role`; the invitee opens the mailed link and is logged in. */
  const invite = async (owner: DashboardBrowser, email: string, role: string): Promise<DashboardBrowser> => {
    const res = await as(owner, 'POST', '/api/members', { email, role });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ email, role, status: 'invited' });
    const token = await mailedToken(env, email, '/accept-invite');
    const accepted = await env.app.inject({
      method: 'POST',
      url: '/api/auth/accept-invite',
      payload: { token, password: PASSWORD },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ member: { email, role }, account: { id: owner.accountId } });
    return browserOf(accepted);
  };

  const login = (email: string, code?: string, userAgent?: string) =>
    env.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: PASSWORD, ...(code === undefined ? {} : { code }) },
      ...(userAgent === undefined ? {} : { headers: { 'user-agent': userAgent } }),
    });

  const auditActions = async (b: DashboardBrowser): Promise<string[]> => {
    const res = await as(b, 'GET', '/api/audit?limit=100');
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: { action: string }[] }).data.map((e) => e.action);
  };

  it('has a rule for every registered /api route; unknown routes are owner-only', async () => {
    await start();
    const registered = registeredRoutes(env).filter((r) => r.includes(' /api/'));
    expect(registered.length).toBeGreaterThan(40);
    const missing = registered.filter((r) => ROUTE_RULES[r] === undefined);
    expect(missing).toEqual([]);
    expect(ruleFor('POST', '/api/not-yet-in-the-table')).toEqual({ permission: 'account.manage' });
    for (const role of ASSIGNABLE_ROLES) expect(ROLE_PERMISSIONS[role].has('account.manage')).toBe(false);
    expect(ROUTE_RULES['POST /api/auth/login']).toBe(PUBLIC);
  });

  it("refuses to invite the operator's address, whose account the operator's notices need", async () => {
    clock = new ManualClock(Date.UTC(2026, 10, 24, 9, 0, 0));
    env = await startTestEnv(kind, {
      clock,
      env: { TXMAIL_PUBLIC_URL: 'https://txmail.example', TXMAIL_OPERATOR_EMAIL: 'Ops@Operator.example' },
    });
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const res = await as(owner, 'POST', '/api/members', { email: 'ops@operator.example', role: 'viewer' });
    expect(res.statusCode).toBe(409);
    expect(res.body).toBe("member_exists: ops@operator.example is the address of this service's operator");
    expect(await env.invitedMember('ops@operator.example')).toBeUndefined();
    // Another address of the same domain is invited as any.
    expect(
      (await as(owner, 'POST', '/api/members', { email: 'dev@operator.example', role: 'viewer' })).statusCode,
    ).toBe(201);
    // An address refused says why, as the send route's do.
    for (const [email, why] of [
      [
        `${'a'.repeat(250)}@example.org`,
        '"email" has a local part (before the @) of 250 characters; at most 64',
      ],
      ['Ann <ann@example.org>', '"email" must be a bare address'],
      ['ann', '"email" is not an email address: "ann"'],
    ]) {
      const refused = await as(owner, 'POST', '/api/members', { email, role: 'viewer' });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toBe(`validation_error: ${why}`);
    }
  });

  it('mails one address at most 5 times an hour, whatever the kind, and an account 20 invitations a day', async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const inviteOf = (email: string) => as(owner, 'POST', '/api/members', { email, role: 'viewer' });
    const mailedTo = async (email: string) => (await testFacade(env.services).mailTo(email)).length;
    // Invite and remove, again and again: the address's hour holds 5 mails.
    for (let i = 0; i < 5; i++) {
      const made = await inviteOf('victim@example.net');
      expect(made.statusCode, made.body).toBe(201);
      const id = (made.json() as { id: string }).id;
      expect((await as(owner, 'DELETE', `/api/members/${id}`)).statusCode).toBe(204);
    }
    const sixth = await inviteOf('victim@example.net');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.body).toBe(
      'rate_limit_exceeded: too many links were mailed to victim@example.net in the last hour; try again in 60 minutes',
    );
    expect(sixth.headers['retry-after']).toBe('3600');
    expect(await env.invitedMember('victim@example.net')).toBeUndefined();
    expect(await mailedTo('victim@example.net')).toBe(5);
    // The account's day: 5 so far (the refused one given back), 15 more, then none.
    for (let i = 0; i < 15; i++) expect((await inviteOf(`new${i}@example.net`)).statusCode).toBe(201);
    const over = await inviteOf('one-more@example.net');
    expect(over.statusCode).toBe(429);
    expect(over.body).toBe(
      'rate_limit_exceeded: this account has mailed its 20 invitations for today; try again in 24 hours',
    );
    // Mailing one again counts too.
    const pending = (
      (await as(owner, 'GET', '/api/members')).json() as { data: { id: string; email: string }[] }
    ).data.find((m) => m.email === 'new0@example.net')!;
    clock.advance(2 * 60_000);
    expect((await as(owner, 'POST', `/api/members/${pending.id}/invitation`)).statusCode).toBe(429);
    // A day on, invitations are mailed again.
    clock.advance(24 * 3600_000);
    expect((await inviteOf('one-more@example.net')).statusCode).toBe(201);
  });

  it('gives a viewer 403 creating a key and an admin a key; an API key keeps its rights', async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const viewer = await invite(owner, 'viewer@example.org', 'viewer');
    const admin = await invite(owner, 'admin@example.org', 'admin');
    const refused = await as(viewer, 'POST', '/api/api-keys', { name: 'v' });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toMatch(/^forbidden: the viewer role cannot do this/);
    expect((await as(viewer, 'GET', '/api/emails')).statusCode).toBe(200);
    expect((await as(viewer, 'GET', '/api/account')).statusCode).toBe(200);
    expect((await as(viewer, 'GET', '/api/webhooks')).statusCode).toBe(403);
    expect((await as(viewer, 'GET', '/api/members')).statusCode).toBe(403);
    const created = await as(admin, 'POST', '/api/api-keys', { name: 'a' });
    expect(created.statusCode, created.body).toBe(201);
    // Admins manage members but cannot touch the owner or the account's security settings.
    const list = (await as(admin, 'GET', '/api/members')).json() as { data: { id: string; role: string }[] };
    expect(list.data.map((m) => m.role).sort()).toEqual(['admin', 'owner', 'viewer']);
    const ownerId = list.data.find((m) => m.role === 'owner')!.id;
    expect((await as(admin, 'DELETE', `/api/members/${ownerId}`)).statusCode).toBe(404);
    expect((await as(admin, 'PATCH', '/api/account/security', { require_totp: false })).statusCode).toBe(403);
    // A developer: keys yes, domains no.
    const dev = await invite(owner, 'dev@example.org', 'developer');
    expect((await as(dev, 'POST', '/api/api-keys', {})).statusCode).toBe(201);
    expect((await as(dev, 'POST', '/api/domains', { name: 'example.net' })).statusCode).toBe(403);
    // The key the admin made still does what keys did: the log, domains.
    const key = (created.json() as { key: string }).key;
    const byKey = await env.app.inject({ method: 'GET', url: '/api/domains', headers: { 'x-api-key': key } });
    expect(byKey.statusCode).toBe(200);
    // A role change applies at once; a removed member's sessions end.
    const viewerId = list.data.find((m) => m.role === 'viewer')!.id;
    expect((await as(owner, 'PATCH', `/api/members/${viewerId}`, { role: 'developer' })).statusCode).toBe(
      200,
    );
    expect((await as(viewer, 'POST', '/api/api-keys', { name: 'v' })).statusCode).toBe(201);
    expect((await as(owner, 'DELETE', `/api/members/${viewerId}`)).statusCode).toBe(204);
    expect((await as(viewer, 'GET', '/api/emails')).statusCode).toBe(401);
    // Nobody can be invited twice, nor an address with an account.
    expect(
      (await as(owner, 'POST', '/api/members', { email: 'admin@example.org', role: 'viewer' })).statusCode,
    ).toBe(409);
    expect(
      (await as(owner, 'POST', '/api/members', { email: 'owner@example.org', role: 'viewer' })).statusCode,
    ).toBe(409);
    expect(
      (await as(owner, 'POST', '/api/members', { email: 'x@example.org', role: 'owner' })).statusCode,
    ).toBe(400);
    // The invitation works once.
    const again = await env.app.inject({
      method: 'POST',
      url: '/api/auth/accept-invite',
      payload: { token: await mailedToken(env, 'admin@example.org', '/accept-invite'), password: PASSWORD },
    });
    expect(again.statusCode).toBe(400);
    // An invited member logs in with its own password, and is not remembered as a device of the
    // account (whose device budget would let it guess the owner's password outside the ceilings).
    const adminLogin = await login('admin@example.org');
    expect(adminLogin.statusCode).toBe(200);
    expect(setCookieOf(adminLogin, 'txmail_session')).toBeDefined();
    expect(setCookieOf(adminLogin, 'txmail_device')).toBeUndefined();
    // Admins manage members' sessions, but not the owner's.
    expect((await as(admin, 'GET', `/api/members/${ownerId}/sessions`)).statusCode).toBe(403);
  });

  it("shows a viewer a webhook endpoint's origin alone in a message's pushes; who may read webhooks, the URL", async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const viewer = await invite(owner, 'viewer@example.org', 'viewer');
    const dev = await invite(owner, 'dev@example.org', 'developer');
    const ownerKey = ((await as(owner, 'POST', '/api/api-keys', { name: 'k' })).json() as { key: string })
      .key;
    const url = 'https://hooks.example.net/hooks/tok_SECRET123?key=QUERYSECRET';
    const endpoint = await env.addWebhook(owner.accountId, { url });
    const message = messageRow(owner.accountId, { status: 'delivered', next_attempt_at: null });
    await env.insertMessage(message);
    const eventId = newId();
    await env.addEvents([
      {
        id: eventId,
        message_id: message.id,
        account_id: owner.accountId,
        type: 'email.delivered',
        data: '{}',
        created_at: clock.now(),
      },
    ]);
    await env.addWebhookAttempt({
      id: newId(),
      webhook_id: endpoint.id,
      account_id: owner.accountId,
      event_id: eventId,
      event_type: 'email.delivered',
      attempt: 1,
      started_at: clock.now(),
      duration_ms: 12,
      success: 1,
      status_code: 200,
      response: '',
      error: null,
    });
    const shown = async (read: () => Promise<{ statusCode: number; body: string; json(): unknown }>) => {
      const res = await read();
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { webhook_deliveries: { url: string }[] }).webhook_deliveries.map((d) => d.url);
    };
    const path = `/api/emails/${message.id}`;
    const viewerSees = await shown(() => as(viewer, 'GET', path));
    expect(viewerSees).toEqual(['https://hooks.example.net/…']);
    expect(JSON.stringify(viewerSees)).not.toMatch(/SECRET/);
    expect(await shown(() => as(dev, 'GET', path))).toEqual([url]);
    expect(await shown(() => as(owner, 'GET', path))).toEqual([url]);
    expect(
      await shown(() => env.app.inject({ method: 'GET', url: path, headers: { 'x-api-key': ownerKey } })),
    ).toEqual([url]);
    // A key the developer made follows its maker down to viewer.
    const devKey = ((await as(dev, 'POST', '/api/api-keys', { name: 'd' })).json() as { key: string }).key;
    const devId = (
      (await as(owner, 'GET', '/api/members')).json() as { data: { id: string; email: string }[] }
    ).data.find((m) => m.email === 'dev@example.org')!.id;
    expect((await as(owner, 'PATCH', `/api/members/${devId}`, { role: 'viewer' })).statusCode).toBe(200);
    expect(
      await shown(() => env.app.inject({ method: 'GET', url: path, headers: { 'x-api-key': devKey } })),
    ).toEqual(['https://hooks.example.net/…']);
  });

  it('lets a developer revoke only the keys it made, and an admin or the owner any; the list says who made each', async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const admin = await invite(owner, 'admin@example.org', 'admin');
    const dev = await invite(owner, 'dev@example.org', 'developer');
    const make = async (b: DashboardBrowser, name: string) => {
      const res = await as(b, 'POST', '/api/api-keys', { name });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: string; made_by: string | null; role: string | null };
    };
    const ownerKey = await make(owner, 'owner-key');
    const adminKey = await make(admin, 'admin-key');
    const devKey = await make(dev, 'dev-key');
    const devKey2 = await make(dev, 'dev-key-2');
    expect([ownerKey, adminKey, devKey].map((k) => [k.made_by, k.role])).toEqual([
      [null, null],
      ['admin@example.org', 'admin'],
      ['dev@example.org', 'developer'],
    ]);
    const listed = async (b: DashboardBrowser) =>
      Object.fromEntries(
        (
          (await as(b, 'GET', '/api/api-keys')).json() as {
            data: { name: string; made_by: string | null; may_revoke: boolean }[];
          }
        ).data.map((k) => [k.name, [k.made_by, k.may_revoke]]),
      );
    expect(await listed(dev)).toEqual({
      'owner-key': [null, false],
      'admin-key': ['admin@example.org', false],
      'dev-key': ['dev@example.org', true],
      'dev-key-2': ['dev@example.org', true],
    });
    expect(Object.values(await listed(admin)).map(([, may]) => may)).toEqual([true, true, true, true]);
    // The developer: not the owner's key, nor the admin's; its own, yes.
    for (const k of [ownerKey, adminKey]) {
      const refused = await as(dev, 'DELETE', `/api/api-keys/${k.id}`);
      expect(refused.statusCode).toBe(403);
      expect(refused.body).toMatch(/^forbidden: the developer role revokes only the keys it made/);
    }
    expect((await as(dev, 'DELETE', `/api/api-keys/${devKey.id}`)).statusCode).toBe(204);
    // The admin revokes another member's key and the owner's.
    expect((await as(admin, 'DELETE', `/api/api-keys/${devKey2.id}`)).statusCode).toBe(204);
    expect((await as(admin, 'DELETE', `/api/api-keys/${ownerKey.id}`)).statusCode).toBe(204);
    expect(Object.keys(await listed(owner))).toEqual(['admin-key']);
    // A key that is gone is not found, for whoever asks.
    expect((await as(dev, 'DELETE', `/api/api-keys/${ownerKey.id}`)).statusCode).toBe(404);
  });

  it("bounds a key an invited member made by the member's role, follows its changes, revokes it on removal", async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const dev = await invite(owner, 'dev@example.org', 'developer');
    const byKey = (key: string, method: 'GET' | 'POST', url: string, payload?: object) =>
      env.app.inject({ method, url, headers: { 'x-api-key': key }, ...(payload ? { payload } : {}) });
    const made = await as(dev, 'POST', '/api/api-keys', { name: 'ci' });
    expect(made.statusCode, made.body).toBe(201);
    const devKey = (made.json() as { key: string }).key;
    const ownerKey = ((await as(owner, 'POST', '/api/api-keys', { name: 'o' })).json() as { key: string })
      .key;
    // What a developer may: the log, reading domains; not changing domains or suppressions.
    expect((await byKey(devKey, 'GET', '/api/emails')).statusCode).toBe(200);
    expect((await byKey(devKey, 'GET', '/api/domains')).statusCode).toBe(200);
    const refused = await byKey(devKey, 'POST', '/api/domains', { name: 'example.net' });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toMatch(/^forbidden: this API key is bounded by its maker's role \(developer\)/);
    expect((await byKey(devKey, 'POST', '/api/suppressions', { address: 'a@example.net' })).statusCode).toBe(
      403,
    );
    // The owner's key keeps full rights.
    const byOwner = await byKey(ownerKey, 'POST', '/api/suppressions', { address: 'a@example.net' });
    expect(byOwner.statusCode, byOwner.body).toBe(201);
    // Promoted to admin, the member's key may manage domains at once.
    const devId = (
      (await as(owner, 'GET', '/api/members')).json() as { data: { id: string; role: string }[] }
    ).data.find((m) => m.role === 'developer')!.id;
    expect((await as(owner, 'PATCH', `/api/members/${devId}`, { role: 'admin' })).statusCode).toBe(200);
    const promoted = await byKey(devKey, 'POST', '/api/domains', { name: 'example.com' });
    expect(promoted.statusCode, promoted.body).toBe(201);
    // Removed, the member's keys stop working; the owner's goes on.
    expect((await as(owner, 'DELETE', `/api/members/${devId}`)).statusCode).toBe(204);
    expect((await byKey(devKey, 'GET', '/api/emails')).statusCode).toBe(401);
    expect((await byKey(ownerKey, 'GET', '/api/emails')).statusCode).toBe(200);
  });

  it('refuses an invitation past its 7 days', async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    expect(
      (await as(owner, 'POST', '/api/members', { email: 'late@example.org', role: 'viewer' })).statusCode,
    ).toBe(201);
    const token = await mailedToken(env, 'late@example.org', '/accept-invite');
    clock.advance(7 * 24 * 3600_000 + 1);
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/auth/accept-invite',
      payload: { token, password: PASSWORD },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/^invalid_token:/);
  });

  it("mails an expired invitation again with a new link; the old link, the member's role and account are as said", async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const invited = await as(owner, 'POST', '/api/members', {
      email: 'again@example.org',
      role: 'developer',
    });
    const id = (invited.json() as { id: string }).id;
    const expiry = Date.UTC(2026, 10, 24, 9, 0, 0) + 7 * 24 * 3600_000;
    expect(invited.json()).toMatchObject({ invite_expires_at: new Date(expiry).toISOString() });
    const first = await mailedToken(env, 'again@example.org', '/accept-invite');
    const describe = (token: string) =>
      env.app.inject({ method: 'POST', url: '/api/auth/invitation', payload: { token } });
    // What the link is for, before it is used.
    const described = await describe(first);
    expect(described.statusCode, described.body).toBe(200);
    expect(described.json()).toEqual({
      email: 'again@example.org',
      role: 'developer',
      account_email: 'owner@example.org',
      expires_at: new Date(expiry).toISOString(),
    });

    // Within a minute of the mail: refused, with the wait.
    clock.advance(30_000);
    const soon = await as(owner, 'POST', `/api/members/${id}/invitation`);
    expect(soon.statusCode, soon.body).toBe(429);
    expect(soon.headers['retry-after']).toBe('30');

    clock.advance(8 * 24 * 3600_000);
    expect((await describe(first)).body).toMatch(/^invalid_token:/);
    const mailsBefore = (await env.mailTo('again@example.org')).length;
    const resent = await as(owner, 'POST', `/api/members/${id}/invitation`);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({
      id,
      status: 'invited',
      invite_expires_at: new Date(clock.now() + 7 * 24 * 3600_000).toISOString(),
    });
    const second = await mailedToken(env, 'again@example.org', '/accept-invite');
    expect(await env.mailTo('again@example.org')).toHaveLength(mailsBefore + 1);
    expect(second).not.toBe(first);
    // An id that is no member of this account.
    expect((await as(owner, 'POST', `/api/members/${newId()}/invitation`)).statusCode).toBe(404);

    const join = (token: string) =>
      env.app.inject({
        method: 'POST',
        url: '/api/auth/accept-invite',
        payload: { token, password: PASSWORD },
      });
    expect((await join(first)).body).toMatch(/^invalid_token:/);
    const joined = await join(second);
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json()).toMatchObject({ member: { email: 'again@example.org', role: 'developer' } });
    expect((await describe(second)).body).toMatch(/^invalid_token:/);

    clock.advance(120_000);
    const done = await as(owner, 'POST', `/api/members/${id}/invitation`);
    expect(done.statusCode).toBe(409);
    expect(done.body).toMatch(/^invitation_accepted:/);
    const list = await as(owner, 'GET', '/api/members');
    expect(list.json()).toMatchObject({
      data: expect.arrayContaining([
        expect.objectContaining({ email: 'again@example.org', status: 'active', invite_expires_at: null }),
      ]),
    });
    // A developer may not mail invitations.
    const member = browserOf(joined);
    expect((await as(member, 'POST', `/api/members/${id}/invitation`)).statusCode).toBe(403);
    const audit = await as(owner, 'GET', '/api/audit');
    expect(audit.json()).toMatchObject({
      data: expect.arrayContaining([
        expect.objectContaining({ action: 'member.invitation_resent', target: id }),
      ]),
    });
  });

  it('mails an invitation once for five "Mail again" requests at the same moment, its one link live', async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const invited = await as(owner, 'POST', '/api/members', { email: 'race@example.org', role: 'viewer' });
    const id = (invited.json() as { id: string }).id;
    await mailedToken(env, 'race@example.org', '/accept-invite');
    clock.advance(120_000);
    const before = (await env.mailTo('race@example.org')).length;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => as(owner, 'POST', `/api/members/${id}/invitation`)),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429, 429, 429, 429]);
    const token = await mailedToken(env, 'race@example.org', '/accept-invite');
    expect(await env.mailTo('race@example.org')).toHaveLength(before + 1);
    const described = await env.app.inject({
      method: 'POST',
      url: '/api/auth/invitation',
      payload: { token },
    });
    expect(described.statusCode, described.body).toBe(200);
  });

  it('enrols in TOTP, signs in with a code once per step, and with each recovery code once', async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const setup = await as(owner, 'POST', '/api/auth/totp/setup');
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret, otpauth_url } = setup.json() as { secret: string; otpauth_url: string };
    expect(otpauth_url).toContain(`secret=${secret}`);
    // Sealed at rest.
    const [row] = await env.members(owner.accountId);
    if (!row) throw new Error('no member stored');
    expect(row.totp_pending_secret).not.toContain(secret);
    expect((await as(owner, 'POST', '/api/auth/totp/confirm', { code: '000000' })).statusCode).toBe(400);
    const confirmed = await as(owner, 'POST', '/api/auth/totp/confirm', {
      code: totpCode(secret, clock.now()),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const codes = (confirmed.json() as { recovery_codes: string[] }).recovery_codes;
    expect(codes).toHaveLength(10);
    // Password alone: no session.
    const noCode = await login('owner@example.org');
    expect(noCode.statusCode).toBe(401);
    expect(noCode.body).toMatch(/^totp_required:/);
    expect(noCode.headers['set-cookie']).toBeUndefined();
    // The confirming code's step is spent; the next step's code works once.
    expect((await login('owner@example.org', totpCode(secret, clock.now()))).statusCode).toBe(400);
    clock.advance(30_000);
    const next = totpCode(secret, clock.now());
    expect((await login('owner@example.org', next)).statusCode).toBe(200);
    expect((await login('owner@example.org', next)).statusCode).toBe(400);
    // A code of the previous step is refused once a later one was used (replay across the window).
    clock.advance(30_000);
    expect((await login('owner@example.org', totpCode(secret, clock.now() - 30_000))).statusCode).toBe(400);
    // Recovery codes: each once, in any case and with or without its dash.
    expect((await login('owner@example.org', codes[0]!.toUpperCase().replace('-', ''))).statusCode).toBe(200);
    expect((await login('owner@example.org', codes[0]!)).statusCode).toBe(400);
    // Turning it off takes a code too; then the password alone logs in again.
    const signedIn = browserOf(await login('owner@example.org', codes[2]!));
    expect((await as(signedIn, 'POST', '/api/auth/totp/disable', { code: '123456' })).statusCode).toBe(400);
    const off = await as(signedIn, 'POST', '/api/auth/totp/disable', { code: codes[3]! });
    expect(off.statusCode, off.body).toBe(200);
    expect((await login('owner@example.org')).statusCode).toBe(200);
    // On again, for the limit below.
    const again = (await as(signedIn, 'POST', '/api/auth/totp/setup')).json() as { secret: string };
    clock.advance(30_000);
    const reconfirmed = await as(signedIn, 'POST', '/api/auth/totp/confirm', {
      code: totpCode(again.secret, clock.now()),
    });
    expect(reconfirmed.statusCode, reconfirmed.body).toBe(200);
    codes.splice(0, codes.length, ...(reconfirmed.json() as { recovery_codes: string[] }).recovery_codes);
    // Wrong codes are limited per member like log-ins.
    for (let i = 0; i < 10; i++) await login('owner@example.org', 'nope-nope');
    const limited = await login('owner@example.org', codes[1]!);
    expect(limited.statusCode).toBe(429);
  });

  it("ends the member's other sessions when it turns two-factor sign-in on, keeping the one that did and nobody else's", async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const dev = await invite(owner, 'dev@example.org', 'developer');
    // A session the member does not know of: stolen, or left open somewhere.
    const stolen = browserOf(await login('dev@example.org'));
    const ownerElsewhere = browserOf(await login('owner@example.org'));
    const alive = async (b: DashboardBrowser) => (await as(b, 'GET', '/api/emails')).statusCode === 200;
    const turnOn = async (b: DashboardBrowser) => {
      const { secret } = (await as(b, 'POST', '/api/auth/totp/setup')).json() as { secret: string };
      const confirmed = await as(b, 'POST', '/api/auth/totp/confirm', {
        code: totpCode(secret, clock.now()),
      });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
    };
    // A wrong code changes nothing.
    await as(dev, 'POST', '/api/auth/totp/setup');
    expect((await as(dev, 'POST', '/api/auth/totp/confirm', { code: '000000' })).statusCode).toBe(400);
    expect(await alive(stolen)).toBe(true);
    await turnOn(dev);
    expect([await alive(dev), await alive(stolen), await alive(owner), await alive(ownerElsewhere)]).toEqual([
      true,
      false,
      true,
      true,
    ]);
    // The owner's likewise: its other session ends, the member's does not.
    await turnOn(owner);
    expect([await alive(owner), await alive(ownerElsewhere), await alive(dev)]).toEqual([true, false, true]);
  });

  it('lets the owner require two-factor sign-in; a member without it can only enrol', async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const dev = await invite(owner, 'dev@example.org', 'developer');
    // Not before the owner has it.
    expect((await as(owner, 'PATCH', '/api/account/security', { require_totp: true })).statusCode).toBe(400);
    const { secret } = (await as(owner, 'POST', '/api/auth/totp/setup')).json() as { secret: string };
    expect(
      (await as(owner, 'POST', '/api/auth/totp/confirm', { code: totpCode(secret, clock.now()) })).statusCode,
    ).toBe(200);
    expect((await as(owner, 'PATCH', '/api/account/security', { require_totp: true })).statusCode).toBe(200);
    const session = (await as(dev, 'GET', '/api/auth/session')).json();
    expect(session).toMatchObject({ account: { require_totp: true }, member: { must_enrol_totp: true } });
    const blocked = await as(dev, 'GET', '/api/emails');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.body).toMatch(/^totp_enrolment_required:/);
    expect((await as(dev, 'POST', '/api/api-keys', {})).statusCode).toBe(403);
    const devSetup = (await as(dev, 'POST', '/api/auth/totp/setup')).json() as { secret: string };
    expect(
      (await as(dev, 'POST', '/api/auth/totp/confirm', { code: totpCode(devSetup.secret, clock.now()) }))
        .statusCode,
    ).toBe(200);
    expect((await as(dev, 'GET', '/api/emails')).statusCode).toBe(200);
    // The audit log says which way each change went, and records no change to what it was.
    for (const on of [true, false, false]) {
      expect((await as(owner, 'PATCH', '/api/account/security', { require_totp: on })).statusCode).toBe(200);
    }
    const entries = (
      (await as(owner, 'GET', '/api/audit?limit=100')).json() as {
        data: { action: string; target: string }[];
      }
    ).data.filter((e) => e.action === 'account.security_changed');
    expect(entries.map((e) => e.target)).toEqual(['totp_not_required', 'totp_required']);
  });

  it('lists and ends sessions per member', async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const dev = await invite(owner, 'dev@example.org', 'developer');
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
    const second = browserOf(await login('dev@example.org', undefined, firefox + ' '.repeat(300) + 'x'));
    const mine = (await as(dev, 'GET', '/api/auth/sessions')).json() as {
      data: { id: string; current: boolean; ip: string | null; user_agent: string | null }[];
    };
    expect(mine.data).toHaveLength(2);
    expect(mine.data.filter((s) => s.current)).toHaveLength(1);
    const other = mine.data.find((s) => !s.current)!;
    // Where it was started: the client's address and its User-Agent, cut to 256 characters.
    expect(other.ip).toBe('127.0.0.1');
    expect(other.user_agent).toBe((firefox + ' '.repeat(300)).slice(0, 256));
    expect((await as(dev, 'DELETE', `/api/auth/sessions/${other.id}`)).statusCode).toBe(204);
    expect((await as(second, 'GET', '/api/emails')).statusCode).toBe(401);
    // The owner sees and ends the developer's sessions; the developer cannot see the owner's.
    const members = (await as(owner, 'GET', '/api/members')).json() as {
      data: { id: string; role: string }[];
    };
    const devId = members.data.find((m) => m.role === 'developer')!.id;
    const ownerId = members.data.find((m) => m.role === 'owner')!.id;
    const devSessions = (await as(owner, 'GET', `/api/members/${devId}/sessions`)).json() as {
      data: { id: string }[];
    };
    expect(devSessions.data).toHaveLength(1);
    expect((await as(dev, 'GET', `/api/members/${ownerId}/sessions`)).statusCode).toBe(403);
    expect(
      (await as(owner, 'DELETE', `/api/members/${devId}/sessions/${devSessions.data[0]!.id}`)).statusCode,
    ).toBe(204);
    expect((await as(dev, 'GET', '/api/emails')).statusCode).toBe(401);
  });

  it('lets an invited member reset a forgotten password as the owner does: same answer, a single-use one-hour link, its own sessions only', async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const dev = await invite(owner, 'dev@example.org', 'developer');
    await invite(owner, 'admin@example.org', 'admin');
    const devId = (
      (await as(owner, 'GET', '/api/members')).json() as { data: { id: string; email: string }[] }
    ).data.find((m) => m.email === 'dev@example.org')!.id;
    const devElsewhere = browserOf(await login('dev@example.org'));
    expect(
      (await as(owner, 'POST', '/api/members', { email: 'late@example.org', role: 'viewer' })).statusCode,
    ).toBe(201);
    const request = (email: string, ip = '192.0.2.1') =>
      env.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email },
        remoteAddress: ip,
      });
    // The same answer, byte for byte, for a member, the owner, a pending invitation and nobody.
    const answers = [];
    for (const email of ['dev@example.org', 'owner@example.org', 'late@example.org', 'nobody@example.org']) {
      const res = await request(email);
      // Each link made before the next request: the owner's comes after the member's.
      await env.services.deferredWork.settled();
      const { date: _date, ...headers } = res.headers;
      answers.push({ status: res.statusCode, headers, body: res.rawPayload.toString('base64') });
    }
    expect(answers[0]).toMatchObject({ status: 202 });
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    await env.services.deferredWork.settled();
    const resetMails = async (email: string) =>
      (await env.mailTo(email)).filter((m) => m.html.includes('/reset-password?token='));
    // A pending invitation has no password to reset: nothing is mailed (as for nobody).
    expect(await resetMails('late@example.org')).toEqual([]);
    expect(await resetMails('nobody@example.org')).toEqual([]);
    // The member's link goes to the member, as its account's mail, sealed in the log.
    const [devMail] = await resetMails('dev@example.org');
    expect(devMail).toMatchObject({
      account_id: owner.accountId,
      from_email: 'onboarding@test.mta.txmail.test',
    });
    const detail = (await as(owner, 'GET', `/api/emails/${devMail!.id}`)).json() as {
      content_sealed: boolean;
    };
    expect(detail.content_sealed).toBe(true);
    const token = await mailedToken(env, 'dev@example.org', '/reset-password');
    // The owner's link (asked for after) does not void the member's, nor the other way round.
    const ownerToken = await mailedToken(env, 'owner@example.org', '/reset-password');
    const confirm = (t: string, password: string) =>
      env.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset/confirm',
        payload: { token: t, password },
      });
    expect((await confirm(token, 'short')).body).toMatch(/^validation_error: /);
    const done = await confirm(token, 'the new dev password');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ password_reset: true });
    expect((await confirm(token, 'another dev password')).body).toMatch(/^invalid_token: /);
    // Every session of the member ends; the owner's do not.
    expect((await as(dev, 'GET', '/api/emails')).statusCode).toBe(401);
    expect((await as(devElsewhere, 'GET', '/api/emails')).statusCode).toBe(401);
    expect((await as(owner, 'GET', '/api/emails')).statusCode).toBe(200);
    expect((await login('dev@example.org')).statusCode).toBe(401);
    const signedIn = await env.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'dev@example.org', password: 'the new dev password' },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json()).toMatchObject({ member: { email: 'dev@example.org', role: 'developer' } });
    // The owner's password is untouched, and the owner's link still works.
    expect((await login('owner@example.org')).statusCode).toBe(200);
    expect((await confirm(ownerToken, 'the new owner password')).statusCode).toBe(200);
    // Both resets are in the audit log, each by the member whose password it was (no session made them).
    const ownerNow = browserOf(
      await env.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'owner@example.org', password: 'the new owner password' },
      }),
    );
    const audit = (await as(ownerNow, 'GET', '/api/audit?limit=100')).json() as {
      data: { action: string; actor: { label: string | null }; target: string | null; ip: string | null }[];
    };
    const resets = audit.data.filter((e) => e.action === 'member.password_reset');
    expect(resets.map((e) => e.actor.label).sort()).toEqual(['dev@example.org', 'owner@example.org']);
    expect(resets.find((e) => e.actor.label === 'dev@example.org')?.target).toBe(devId);
    expect(resets.every((e) => e.ip === '127.0.0.1')).toBe(true);
    // A link older than an hour is refused.
    await request('dev@example.org', '192.0.2.2');
    const late = await mailedToken(env, 'dev@example.org', '/reset-password');
    clock.advance(3600_000 + 1);
    expect((await confirm(late, 'yet another password')).body).toMatch(/^invalid_token: /);
    // A removed member's link is refused.
    await request('dev@example.org', '192.0.2.3');
    const orphan = await mailedToken(env, 'dev@example.org', '/reset-password');
    const admin = browserOf(await login('admin@example.org'));
    expect((await as(admin, 'DELETE', `/api/members/${devId}`)).statusCode).toBe(204);
    expect((await confirm(orphan, 'a removed password')).body).toMatch(/^invalid_token: /);
  });

  it("limits a member's reset links as the owner's: 5 mails an address in an hour, 20 requests a network", async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    await invite(owner, 'dev@example.org', 'developer');
    const request = (ip: string) =>
      env.app.inject({
        method: 'POST',
        url: '/api/auth/password-reset',
        payload: { email: 'dev@example.org' },
        remoteAddress: ip,
      });
    for (let i = 0; i < 7; i++) expect((await request(`203.0.113.${i}`)).statusCode).toBe(202);
    await env.services.deferredWork.settled();
    const resets = (await env.mailTo('dev@example.org')).filter((m) => m.html.includes('/reset-password?'));
    // The invitation was the first of the address's 5 mails in the hour.
    expect(resets).toHaveLength(4);
    expect(await env.mailTo('dev@example.org')).toHaveLength(5);
    for (let i = 0; i < 20; i++) await request('2001:db8:9::1');
    const limited = await request('2001:db8:9::2');
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toMatch(/^rate_limit_exceeded: /);
  });

  it("takes an invited member's address as an account's: sign-up answers the same and changes nothing, the operator is refused", async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    await invite(owner, 'dev@example.org', 'developer');
    expect(
      (await as(owner, 'POST', '/api/members', { email: 'late@example.org', role: 'viewer' })).statusCode,
    ).toBe(201);
    const answers = [];
    for (const [email, ip] of [
      ['owner@example.org', '198.51.100.1'],
      ['dev@example.org', '198.51.100.2'],
      ['Late@example.org', '198.51.100.3'],
      ['nobody@example.org', '198.51.100.4'],
    ] as const) {
      const res = await postSignup(env, email, 'a stranger password', ip);
      const { date: _date, ...headers } = res.headers;
      answers.push({ status: res.statusCode, headers, body: res.rawPayload.toString('base64') });
    }
    expect(answers[0]).toMatchObject({ status: 202 });
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
    // No account at a member's address, joined or invited; the stranger's address got its link.
    expect(await env.accountByEmail('dev@example.org')).toBeUndefined();
    expect(await env.accountByEmail('late@example.org')).toBeUndefined();
    expect(await env.accountByEmail('nobody@example.org')).toBeDefined();
    // The member is told, as an owner is, by a mail whose links only open pages; its account by a notice.
    for (const email of ['dev@example.org', 'late@example.org']) {
      const told = (await env.mailTo(email)).filter(
        (m) => m.subject === 'Someone tried to sign up for txmail with your address',
      );
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({
        account_id: owner.accountId,
        from_email: 'onboarding@test.mta.txmail.test',
      });
      expect(told[0]!.html).toContain('/forgot-password');
      expect(told[0]!.html).not.toMatch(/token=/);
    }
    const notices = (await as(owner, 'GET', '/api/account/notices')).json() as {
      data: { kind: string; message: string }[];
    };
    // Its own kind: the owner's own notice of a sign-up with the owner's address stays.
    expect(notices.data.map((n) => n.kind).sort()).toEqual(['member_signup_attempt', 'signup_attempt']);
    expect(notices.data.find((n) => n.kind === 'member_signup_attempt')!.message).toContain(
      'late@example.org',
    );
    // The member still signs in to its team.
    const devLogin = await login('dev@example.org');
    expect(devLogin.statusCode).toBe(200);
    expect(devLogin.json()).toMatchObject({
      account: { id: owner.accountId },
      member: { role: 'developer' },
    });
    // The operator cannot make an account there either; invitations still refuse an account's address.
    await expect(env.services.accounts.create({ email: 'dev@example.org' })).rejects.toThrow(
      /invited member of another account/,
    );
    expect(
      (await as(owner, 'POST', '/api/members', { email: 'nobody@example.org', role: 'viewer' })).statusCode,
    ).toBe(409);
  });

  it("ends only that member's own sessions when a password is changed or reset, the owner's too", async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const admin = await invite(owner, 'admin@example.org', 'admin');
    const ownerElsewhere = browserOf(await login('owner@example.org'));
    const alive = async (b: DashboardBrowser) => (await as(b, 'GET', '/api/account')).statusCode === 200;
    // A session from before members (no member: the owner's, as it is read) ends with the owner's.
    await env.addSession({
      id_hash: 'f'.repeat(64),
      account_id: owner.accountId,
      member_id: null,
      created_at: clock.now(),
      last_seen_at: clock.now(),
      expires_at: clock.now() + 3600_000,
    });
    const legacy = async () => (await env.sessions()).find((r) => r.id_hash === 'f'.repeat(64));
    expect(await legacy()).toBeDefined();
    // The owner changes the password: the owner's other session ends, the admin's does not.
    const changed = await as(owner, 'POST', '/api/auth/password', {
      current_password: PASSWORD,
      new_password: 'the owner password 2',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect([await alive(owner), await alive(ownerElsewhere), await alive(admin)]).toEqual([
      true,
      false,
      true,
    ]);
    expect(await legacy()).toBeUndefined();
    // The owner resets it by the mailed link: every session of the owner ends, the admin's does not.
    await env.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: 'owner@example.org' },
    });
    const token = await mailedToken(env, 'owner@example.org', '/reset-password');
    const reset = await env.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token, password: 'the owner password 3' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect([await alive(owner), await alive(admin)]).toEqual([false, true]);
    // The admin changes its own: the admin's other session ends, the owner's new one does not.
    const owner3 = browserOf(
      await env.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'owner@example.org', password: 'the owner password 3' },
      }),
    );
    const adminElsewhere = browserOf(await login('admin@example.org'));
    const adminChanged = await as(adminElsewhere, 'POST', '/api/auth/password', {
      current_password: PASSWORD,
      new_password: 'the admin password 2',
    });
    expect(adminChanged.statusCode, adminChanged.body).toBe(200);
    expect([await alive(adminElsewhere), await alive(admin), await alive(owner3)]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it("keeps the sign-in links txmail mails out of the account's log: a viewer cannot read the owner's reset link, nor an invitation", async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const viewer = await invite(owner, 'viewer@example.org', 'viewer');
    // Anyone may ask for the owner's reset link; it is queued as the account's own mail.
    const asked = await env.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: 'owner@example.org' },
    });
    expect(asked.statusCode).toBe(202);
    const token = await mailedToken(env, 'owner@example.org', '/reset-password');
    expect(
      (await as(owner, 'POST', '/api/members', { email: 'new@example.org', role: 'admin' })).statusCode,
    ).toBe(201);
    const inviteToken = await mailedToken(env, 'new@example.org', '/accept-invite');
    const ownerKey = ((await as(owner, 'POST', '/api/api-keys', { name: 'k' })).json() as { key: string })
      .key;
    const log = (await as(viewer, 'GET', '/api/emails?limit=100')).json() as {
      data: { id: string; to: string; subject: string }[];
    };
    // The owner's sign-up link, the reset link, the invitations (the viewer's own, used, and the new one).
    const sealed = log.data.filter((m) =>
      /^(Verify your email|Reset your txmail|You are invited)/.test(m.subject),
    );
    expect(sealed.map((m) => m.to).sort()).toEqual([
      'new@example.org',
      'owner@example.org',
      'owner@example.org',
      'viewer@example.org',
    ]);
    // One of them delivered (final): still no date.
    await env.updateMessage(sealed[0]!.id, { status: 'delivered', next_attempt_at: null });
    for (const m of sealed) {
      // The bytes as sent are kept from the first attempt: they are withheld too.
      await env.keepRaw(
        owner.accountId,
        m.id,
        Buffer.from(`Subject: x\r\n\r\n${token} ${inviteToken}\r\n`),
        clock.now(),
      );
      // A notice the recipient's mail system sent back, quoting the message: its text is withheld too.
      await env.addEvents([
        {
          id: newId(),
          account_id: owner.accountId,
          message_id: m.id,
          type: 'email.report_received',
          data: JSON.stringify({
            kind: 'undetermined',
            category: 'undetermined',
            text: `${token} ${inviteToken}`,
          }),
          created_at: clock.now(),
        },
      ]);
      for (const reader of [
        (url: string) => as(viewer, 'GET', url),
        (url: string) => env.app.inject({ method: 'GET', url, headers: { 'x-api-key': ownerKey } }),
      ]) {
        const detail = await reader(`/api/emails/${m.id}`);
        expect(detail.statusCode, detail.body).toBe(200);
        expect(detail.json()).toMatchObject({ message: '', content_sealed: true, raw_bytes: null });
        // Final or not, no removal date is promised: a sealed message's content goes within a minute of
        // its being final, whatever the account's retention.
        expect(detail.json()).toMatchObject({ content_removes_at: null });
        const raw = await reader(`/api/emails/${m.id}/raw`);
        expect(raw.statusCode).toBe(404);
        expect(raw.body).toMatch(/^not_found: the content of email .* is sealed/);
        for (const res of [detail, raw]) {
          expect(res.body).not.toContain(token);
          expect(res.body).not.toContain(inviteToken);
        }
      }
      // Nor can a copy be made to read.
      const copy = await as(owner, 'POST', `/api/emails/${m.id}/resend`);
      expect(copy.statusCode).toBe(400);
      expect(copy.body).toMatch(/^validation_error: .*carries a sign-in link/);
      // Its content removed once it is final: the reason it cannot be re-sent is still the link.
      await env.updateMessage(m.id, { content_removed_at: clock.now() });
      const later = await as(owner, 'POST', `/api/emails/${m.id}/resend`);
      expect(later.body).toMatch(/^validation_error: .*carries a sign-in link/);
    }
    // Mail without such a link is shown as ever.
    expect((await as(owner, 'POST', '/api/guided-test')).statusCode).toBe(200);
    const guided = (
      (await as(viewer, 'GET', '/api/emails?limit=100')).json() as { data: { id: string; subject: string }[] }
    ).data.find((m) => m.subject === 'Your first email from txmail')!;
    const shown = (await as(viewer, 'GET', `/api/emails/${guided.id}`)).json() as {
      message: string;
      content_sealed: boolean;
    };
    expect(shown.content_sealed).toBe(false);
    expect(shown.message).toContain('It works!');
    // The link itself still works, for whoever reads the inbox.
    const reset = await env.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token, password: 'a new owner password' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
  });

  it("stores a password again at today's cost when its owner or a member logs in with it, and only then", async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    await invite(owner, 'dev@example.org', 'developer');
    const { accounts, members } = env.services.repos;
    const member = (await members.findInvitedByEmail('dev@example.org'))!;
    // Both passwords were set when the cost was 2048 (the tests run at 1024).
    const older = new PasswordHasher(2048);
    const ownerOld = await older.hash(PASSWORD);
    const memberOld = await older.hash(PASSWORD);
    await accounts.setPassword(owner.accountId, ownerOld);
    await members.setPassword(member.id, memberOld);
    const stored = async () => [
      (await accounts.findById(owner.accountId))!.password_hash!,
      (await members.byId(member.id))!.password_hash!,
    ];

    // A wrong password changes nothing.
    for (const email of ['owner@example.org', 'dev@example.org']) {
      const wrong = await env.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: 'not the password' },
      });
      expect(wrong.statusCode).toBe(401);
    }
    await env.services.deferredWork.settled();
    expect(await stored()).toEqual([ownerOld, memberOld]);

    // The right one is stored again at 1024 (after the answer), each in its own row, and still logs in.
    expect((await login('owner@example.org')).statusCode).toBe(200);
    expect((await login('dev@example.org')).statusCode).toBe(200);
    await env.services.deferredWork.settled();
    const [ownerNew, memberNew] = await stored();
    for (const hash of [ownerNew!, memberNew!]) {
      expect(hash).toMatch(/^scrypt\$1024\$8\$1\$/);
      expect(await verifyPassword(PASSWORD, hash)).toBe(true);
    }
    expect((await login('owner@example.org')).statusCode).toBe(200);
    expect((await login('dev@example.org')).statusCode).toBe(200);
    await env.services.deferredWork.settled();
    // At today's cost already: left as it is.
    expect(await stored()).toEqual([ownerNew, memberNew]);

    // A password set after the log-in read the old hash is never undone by the rehash.
    const changed = await older.hash('a newer password!');
    await accounts.setPassword(owner.accountId, changed);
    await accounts.setPassword(owner.accountId, await older.hash(PASSWORD), ownerNew!);
    await members.setPassword(member.id, changed);
    await members.setPassword(member.id, await older.hash(PASSWORD), memberNew!);
    expect(await stored()).toEqual([changed, changed]);
  });

  it("gives the log tools their roles: search and the raw message to all, re-send to senders, the account's settings to the owner", async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const viewer = await invite(owner, 'viewer@example.org', 'viewer');
    const dev = await invite(owner, 'dev@example.org', 'developer');
    const admin = await invite(owner, 'admin@example.org', 'admin');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await as(viewer, 'GET', '/api/emails?q=receipt')).statusCode).toBe(200);
    // Past the role check: no such message.
    expect((await as(viewer, 'GET', `/api/emails/${unknown}/raw`)).statusCode).toBe(404);
    expect((await as(viewer, 'POST', `/api/emails/${unknown}/resend`)).body).toMatch(/^forbidden: /);
    expect((await as(dev, 'POST', `/api/emails/${unknown}/resend`)).statusCode).toBe(404);
    for (const member of [viewer, dev, admin]) {
      const refused = await as(member, 'PATCH', '/api/account', { content_retention_days: 7 });
      expect(refused.body).toMatch(/^forbidden: .*needs account\.manage/);
    }
    const changed = await as(owner, 'PATCH', '/api/account', { content_retention_days: 7 });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await auditActions(owner)).toContain('account.updated');
  });

  it('writes an audit entry for every change, with who, when and from where', async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    const admin = await invite(owner, 'admin@example.org', 'admin');
    const key = (await as(admin, 'POST', '/api/api-keys', { name: 'k' })).json() as {
      id: string;
      key: string;
    };
    expect((await as(admin, 'DELETE', `/api/api-keys/${key.id}`)).statusCode).toBe(204);
    const sup = await as(admin, 'POST', '/api/suppressions', { address: 'gone@example.net' });
    expect(sup.statusCode, sup.body).toBe(201);
    expect((await as(admin, 'DELETE', '/api/suppressions/gone@example.net')).statusCode).toBe(204);
    // Webhooks need a paid plan.
    await env.setPlan(owner.accountId, 'pro');
    const hook = await as(admin, 'POST', '/api/webhooks', {
      url: 'https://hooks.example.net/x',
      events: ['email.delivered'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const hookId = (hook.json() as { id: string }).id;
    expect((await as(admin, 'GET', `/api/webhooks/${hookId}/secret`)).statusCode).toBe(200);
    expect((await as(admin, 'POST', `/api/webhooks/${hookId}/rotate-secret`)).statusCode).toBe(200);
    const domain = await as(admin, 'POST', '/api/domains', { name: 'example.net' });
    expect(domain.statusCode, domain.body).toBe(201);
    const domainId = (domain.json() as { id: string }).id;
    expect((await as(admin, 'POST', `/api/domains/${domainId}/dkim/rotate`)).statusCode).toBeLessThan(300);
    expect((await as(admin, 'DELETE', `/api/domains/${domainId}`)).statusCode).toBe(200);
    const actions = await auditActions(owner);
    expect(actions).toEqual(
      expect.arrayContaining([
        'member.invited',
        'member.joined',
        'api_key.created',
        'api_key.revoked',
        'suppression.added',
        'suppression.removed',
      ]),
    );
    expect(actions).toEqual(
      expect.arrayContaining(['webhook.created', 'webhook.secret_revealed', 'webhook.secret_rotated']),
    );
    expect(actions).toEqual(expect.arrayContaining(['domain.created', 'dkim_key.rotated', 'domain.deleted']));
    const entries = ((await as(owner, 'GET', '/api/audit')).json() as { data: Record<string, unknown>[] })
      .data;
    // The domain's entries name it, and who did it.
    for (const action of ['domain.created', 'dkim_key.rotated', 'domain.deleted']) {
      expect(entries.find((e) => e.action === action)).toMatchObject({
        actor: { type: 'member', label: 'admin@example.org' },
        target: domainId,
      });
    }
    expect(entries.find((e) => e.action === 'webhook.secret_rotated')).toMatchObject({ target: hookId });
    // A suppression is named by its address, added or removed, as the API and the CLI name it.
    for (const action of ['suppression.added', 'suppression.removed']) {
      expect(entries.find((e) => e.action === action)).toMatchObject({ target: 'gone@example.net' });
    }
    const created = entries.find((e) => e.action === 'api_key.created')!;
    expect(created).toMatchObject({
      actor: { type: 'member', label: 'admin@example.org' },
      target: key.id,
      ip: '127.0.0.1',
    });
    // Nothing secret in the log.
    expect(JSON.stringify(entries)).not.toContain(key.key);
    // Paged by the cursor it gives; one it did not give is refused, not an empty page.
    const first = (await as(owner, 'GET', '/api/audit?limit=2')).json() as {
      data: { id: string }[];
      next_cursor: string;
    };
    const second = (
      (await as(owner, 'GET', `/api/audit?limit=2&cursor=${first.next_cursor}`)).json() as {
        data: { id: string }[];
      }
    ).data;
    expect(second[0]!.id).toBe(entries[2]!.id);
    const bad = await as(owner, 'GET', '/api/audit?cursor=zz');
    expect([bad.statusCode, bad.body]).toEqual([
      400,
      'validation_error: "cursor" is not a cursor returned by this API',
    ]);
    // A viewer cannot read it; a refused change leaves no entry.
    const viewer = await invite(owner, 'viewer@example.org', 'viewer');
    expect((await as(viewer, 'GET', '/api/audit')).statusCode).toBe(403);
    const before = (await auditActions(owner)).length;
    expect((await as(viewer, 'POST', '/api/api-keys', {})).statusCode).toBe(403);
    expect((await auditActions(owner)).length).toBe(before);
    // Suppressing an address already suppressed changes nothing, and leaves no second entry.
    const suppress = () => as(owner, 'POST', '/api/suppressions', { address: 'asked@example.org' });
    const added = async () => (await auditActions(owner)).filter((a) => a === 'suppression.added').length;
    const addedBefore = await added();
    expect((await suppress()).statusCode).toBe(201);
    expect((await suppress()).statusCode).toBe(200);
    expect(await added()).toBe(addedBefore + 1);
    // Every mutating route of the table has an audit action.
    for (const [route, rule] of Object.entries(ROUTE_RULES)) {
      if (rule === PUBLIC || route.startsWith('GET ')) continue;
      if (
        ['POST /api/auth/logout', 'POST /api/auth/totp/setup', 'POST /api/auth/resend-verification'].includes(
          route,
        )
      )
        continue;
      if (route.startsWith('POST /api/email/send') || route === 'POST /api/guided-test') continue;
      expect(rule.audit, route).toBeDefined();
    }
  });

  it('keeps what a target and a key were called, so entries about what is gone still name it', async () => {
    await start();
    const owner = await signUpAndVerify(env, 'owner@example.org', PASSWORD);
    await env.setPlan(owner.accountId, 'pro');
    await invite(owner, 'joiner@example.org', 'viewer');
    const joiner = (
      (await as(owner, 'GET', '/api/members')).json() as { data: { id: string; email: string }[] }
    ).data.find((m) => m.email === 'joiner@example.org')!;
    expect((await as(owner, 'PATCH', `/api/members/${joiner.id}`, { role: 'developer' })).statusCode).toBe(
      200,
    );
    const made = (await as(owner, 'POST', '/api/api-keys', { name: 'deploy bot' })).json() as {
      id: string;
      key: string;
      prefix: string;
    };
    const byKey = (method: string, url: string, payload?: object) =>
      env.app.inject({ method: method as 'POST', url, headers: { 'x-api-key': made.key }, payload });
    // A change made with the key names the key, as it was called.
    const domain = await byKey('POST', '/api/domains', { name: 'bücher.example' });
    expect(domain.statusCode, domain.body).toBe(201);
    const domainId = (domain.json() as { id: string }).id;
    expect((await byKey('DELETE', `/api/domains/${domainId}`)).statusCode).toBe(200);
    // A receiver's token in the endpoint's path or query is not kept in the log.
    const hook = await as(owner, 'POST', '/api/webhooks', {
      url: 'https://hooks.example.net/in/PathS3cret?token=s3cret',
      description: 'orders',
      events: ['email.delivered'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const hookId = (hook.json() as { id: string }).id;
    expect((await as(owner, 'DELETE', `/api/webhooks/${hookId}`)).statusCode).toBeLessThan(300);
    const invited = await as(owner, 'POST', '/api/members', {
      email: 'leaving@example.org',
      role: 'developer',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const memberId = (invited.json() as { id: string }).id;
    expect((await as(owner, 'DELETE', `/api/members/${memberId}`)).statusCode).toBeLessThan(300);
    expect((await as(owner, 'DELETE', `/api/api-keys/${made.id}`)).statusCode).toBe(204);
    // An id that names nothing of the account's is refused as before, and names nothing.
    expect((await as(owner, 'DELETE', `/api/webhooks/${made.id}`)).statusCode).toBe(404);

    const entries = ((await as(owner, 'GET', '/api/audit?limit=100')).json() as { data: AuditRow[] }).data;
    const entry = (action: string) => entries.find((e) => e.action === action);
    const keyLabel = `deploy bot (${made.prefix}…)`;
    expect(entry('domain.created')).toMatchObject({
      actor: { type: 'api_key', id: made.id, label: keyLabel },
      target: domainId,
      target_label: 'bücher.example',
    });
    expect(entry('domain.deleted')).toMatchObject({ target: domainId, target_label: 'bücher.example' });
    expect(entry('webhook.created')).toMatchObject({
      target: hookId,
      target_label: 'orders (https://hooks.example.net/…)',
    });
    expect(entry('webhook.deleted')).toMatchObject({
      target: hookId,
      target_label: 'orders (https://hooks.example.net/…)',
    });
    expect(JSON.stringify(entries)).not.toContain('s3cret');
    expect(JSON.stringify(entries)).not.toContain('PathS3cret');
    // Changes recorded outside the routes' hook name their member too.
    expect(entry('member.joined')).toMatchObject({ target_label: 'joiner@example.org as viewer' });
    // A role change names the role the member has after it, and the one it had before.
    expect(entry('member.role_changed')).toMatchObject({
      target: joiner.id,
      target_label: 'joiner@example.org as developer (was viewer)',
    });
    expect(entry('member.removed')).toMatchObject({
      target: memberId,
      target_label: 'leaving@example.org as developer',
    });
    expect(entry('api_key.created')).toMatchObject({ target: made.id, target_label: keyLabel });
    expect(entry('api_key.revoked')).toMatchObject({ target: made.id, target_label: keyLabel });
    // What names itself keeps no label: an address, the account's own settings.
    const sup = await as(owner, 'POST', '/api/suppressions', { address: 'x@example.net' });
    expect(sup.statusCode, sup.body).toBe(201);
    const after = ((await as(owner, 'GET', '/api/audit?limit=1')).json() as { data: AuditRow[] }).data;
    expect(after[0]).toMatchObject({
      action: 'suppression.added',
      target: 'x@example.net',
      target_label: null,
    });
  });
});

interface AuditRow {
  action: string;
  actor: { type: string; id: string | null; label: string | null };
  target: string | null;
  target_label: string | null;
}

/**
 * Every route the app registered, as `METHOD /pattern` (HEAD left out: Fastify answers it with the GET
 * route), read from Fastify's route tree.
 */
function registeredRoutes(env: TestEnv): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of env.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (.*) \(([A-Z, ]+)\)$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = path;
    for (const method of m[3]!.split(', ')) if (method !== 'HEAD') out.push(`${method} ${path}`);
  }
  return out;
}

describe.each(databaseKinds)('migration 028 on $name', (kind) => {
  it("makes every account's user its owner member, and its sessions the owner's", async () => {
    const database = await kind.create();
    const db = openDatabase(database.url);
    try {
      const migrator = await migratorFor(db);
      expect((await migrator.migrateTo('025-dkim-rotation')).error).toBeUndefined();
      const k = db.kysely as unknown as Kysely<Record<string, Record<string, unknown>>>;
      await k
        .insertInto('accounts')
        .values({
          id: 'a1',
          email: 'a@x.example',
          password_hash: 'scrypt$hash',
          plan: 'pro',
          state: 'production',
          suspended_at: null,
          created_at: 5,
          email_verified_at: 5,
        })
        .execute();
      await k
        .insertInto('sessions')
        .values({ id_hash: 'h1', account_id: 'a1', created_at: 6, last_seen_at: 6, expires_at: 99 })
        .execute();
      expect(await migrate(db)).toEqual(expect.arrayContaining(['028-members', '029-audit-log']));
      const members = await db.kysely.selectFrom('members').selectAll().execute();
      expect(members).toEqual([
        expect.objectContaining({
          id: 'own_a1',
          account_id: 'a1',
          email: 'a@x.example',
          role: 'owner',
          password_hash: null,
          accepted_at: 5,
          totp_enabled_at: null,
        }),
      ]);
      const account = await db.kysely.selectFrom('accounts').selectAll().executeTakeFirstOrThrow();
      expect(account.password_hash).toBe('scrypt$hash');
      expect(account.require_totp_at).toBeNull();
      const sessions = await db.kysely.selectFrom('sessions').selectAll().execute();
      expect(sessions).toEqual([expect.objectContaining({ id_hash: 'h1', member_id: 'own_a1' })]);
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
