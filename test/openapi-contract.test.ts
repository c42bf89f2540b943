// /openapi.json describes every operation completely (docs/design.md §3): its 2xx body and the error
// codes it can answer, and what the webhooks receive. A tour calls every operation and checks each
// answer against the document (the same check that runs on every answer of the suite:
// helpers/openapi-contract.ts), and the check itself is shown to catch what it must.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import swagger from '@fastify/swagger';
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../src/accounts/totp.js';
import { WEBHOOK_EVENT_TYPES } from '../src/db/schema.js';
import { ERROR_CODES, type ErrorCode } from '../src/errors.js';
import { eventPayload } from '../src/webhooks/payload.js';
import { describeOnly } from '../src/http/schemas/serializer.js';
import { databaseKinds } from './helpers/databases.js';
import { browserOf, mailedToken, type DashboardBrowser } from './helpers/dashboard-signup.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { CONTRACT_DIR_VARIABLE, recordFinding, takeFindings } from './helpers/contract-findings.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../src/http/idempotency-key.js';
import { recordContract, ResponseContract, type OpenApiDocument } from './helpers/openapi-contract.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';
import { until } from './helpers/wait.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
interface Response {
  description: string;
  content?: Record<string, { schema: { pattern?: string } }>;
}
interface FullDocument extends OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
}

describe('the OpenAPI document', () => {
  let env: TestEnv;
  let doc: FullDocument;
  let contract: ResponseContract;
  // DNS and an SMTP sink on loopback: dest.example's mail is delivered (or bounced, or deferred, by
  // the recipient's name); no other name resolves, so a domain check finds its records missing.
  const mail = new MailFixture({ domains: ['dest.example'] });
  const receiver = new WebhookReceiver();
  let tenant: Tenant;
  /** `METHOD /path {status}` of every answer of the tour. */
  const answered = new Set<string>();

  beforeAll(async () => {
    await mail.start();
    await receiver.start();
    // Rate limits on (the suite's default is off), high enough never to refuse: every authenticated answer
    // carries the RateLimit-* headers the document must declare.
    env = await startTestEnv(databaseKinds[0]!, { env: { ...mail.env, TXMAIL_RATE_LIMIT: '1000000' } });
    doc = (await env.app.inject({ method: 'GET', url: '/openapi.json' })).json() as FullDocument;
    contract = new ResponseContract(doc);
    tenant = await createTenant(env.services, { plan: 'pro', domain: 'acme.example' });
  });
  afterAll(async () => {
    await env.close();
    await receiver.stop();
    await mail.stop();
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
    );

  /** Calls the API and checks the answer against the document at once. */
  async function call(
    method: Method,
    url: string,
    as: Tenant | DashboardBrowser | null,
    payload?: object,
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = {};
    if (as && 'apiKey' in as) headers['x-api-key'] = as.apiKey;
    if (as && 'cookie' in as) {
      headers.cookie = as.cookie;
      if (method !== 'GET') headers['x-csrf-token'] = as.csrf;
    }
    const res = await env.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    const route = contract.route(url.split('?')[0]!);
    const verdict = contract.check({
      method,
      route,
      status: res.statusCode,
      contentType: res.headers['content-type'] as string | undefined,
      body: res.body,
      headers: res.headers,
    });
    expect(verdict, `${method} ${url} ${res.statusCode} ${res.body.slice(0, 300)}`).toEqual({ ok: true });
    answered.add(`${method} ${route && ResponseContract.path(route)} ${res.statusCode}`);
    return res;
  }
  /** An error answer: its status and code, and the answer as documented. */
  const fails = async (
    status: number,
    code: ErrorCode,
    method: Method,
    url: string,
    as: Tenant | DashboardBrowser | null,
    payload?: object,
  ) => {
    const res = await call(method, url, as, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
    expect(res.body, `${method} ${url}`).toMatch(new RegExp(`^${code}: `));
    return res;
  };
  const ok = async (method: Method, url: string, as: Tenant | DashboardBrowser | null, payload?: object) => {
    const res = await call(method, url, as, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res;
  };

  it('describes the 2xx body and the error codes of every operation', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThanOrEqual(43);
    for (const { path, method, op } of ops) {
      const statuses = Object.keys(op.responses);
      const success = statuses.filter((s) => s.startsWith('2'));
      expect(success.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const s of success) {
        // The raw view answers the message itself (docs/API.md, GET /api/emails/:id/raw).
        const media = path === '/api/emails/{id}/raw' ? 'message/rfc822' : 'application/json';
        if (s !== '204') expect(op.responses[s]!.content?.[media], `${method} ${path} ${s}`).toBeDefined();
      }
      expect(statuses, `${method} ${path}: every route can fail on a bug`).toContain('500');
      for (const s of statuses.filter((x) => !x.startsWith('2'))) {
        const pattern = op.responses[s]!.content?.['text/plain']?.schema.pattern;
        const codes = /^\^\(([a-z_|]+)\): $/.exec(pattern ?? '')?.[1]?.split('|');
        expect(codes, `${method} ${path} ${s}: text/plain with its codes`).toBeDefined();
        for (const code of codes!) {
          // The codes come from the one registry, each under its own status.
          expect(ERROR_CODES[code as ErrorCode]?.status, `${method} ${path} ${s} ${code}`).toBe(Number(s));
        }
      }
    }
  });

  it('declares the Idempotency-Key header where a retry is made safe by it', () => {
    const takes = operations()
      .filter(({ op }) =>
        ((op as { parameters?: { name: string; in: string }[] }).parameters ?? []).some(
          (p) => p.in === 'header' && p.name === 'Idempotency-Key',
        ),
      )
      .map(({ method, path }) => `${method} ${path}`);
    expect(takes.sort()).toEqual([
      'POST /api/email/send',
      'POST /api/email/send/test',
      'POST /api/emails/{id}/resend',
    ]);
    // The served document's pattern is the one the server holds keys to.
    const send = doc.paths['/api/email/send']!.post as unknown as {
      parameters: { name: string; schema: { pattern: string } }[];
    };
    const served = send.parameters.find((p) => p.name === 'Idempotency-Key')!.schema.pattern;
    expect(served).toBe(IDEMPOTENCY_KEY_PATTERN.source);
    const pattern = new RegExp(served);
    expect(pattern.test('order-1001')).toBe(true);
    expect(pattern.test('x'.repeat(257))).toBe(false);
    expect(pattern.test('caf\u00e9')).toBe(false);
  });

  it('describes what each webhook event type POSTs', () => {
    for (const type of [...WEBHOOK_EVENT_TYPES, 'webhook.test']) {
      expect(doc.webhooks?.[type], type).toBeDefined();
    }
    const message = {
      id: 'm1',
      from_name: 'Acme',
      from_email: 'noreply@acme.example',
      to_name: '',
      to_email: 'jane@example.org',
      subject: 'Your code',
      created_at: Date.now(),
    };
    const event = (type: string, data: object) => ({
      id: 'e1',
      type,
      created_at: Date.now(),
      data: JSON.stringify(data),
    });
    const samples: [string, object][] = [
      [
        'email.delivered',
        { attempt: 1, smtp_code: 250, reply: '250 ok', remote_host: 'mx', remote_ip: '192.0.2.1', tls: true },
      ],
      [
        'email.bounced',
        {
          attempt: 1,
          smtp_code: 550,
          enhanced_code: '5.1.1',
          bounce_type: 'permanent',
          category: 'unknown_recipient',
        },
      ],
      ['email.complained', { category: 'complaint', feedback_type: 'abuse' }],
      [
        'email.delivery_delayed',
        {
          bounce_type: 'transient',
          category: 'policy_rejected',
          greylisted: true,
          next_attempt_at: new Date().toISOString(),
        },
      ],
      [
        'email.failed',
        {
          reason: 'expired',
          category: 'expired',
          last_category: null,
          expired_at: new Date().toISOString(),
          detail: 'not delivered',
          attempts: 0,
        },
      ],
    ];
    for (const [type, data] of samples) {
      const payload = eventPayload({ event: event(type, data) as never, message });
      expect(contract.checkWebhook(type, JSON.parse(JSON.stringify(payload))), type).toEqual({ ok: true });
    }
    const account = {
      account_id: 'a1',
      status: 'paused',
      reason: 'too many bounces',
      bounce_rate: 0.125,
      complaint_rate: 0,
      messages: 600,
      window_days: 7,
    };
    const paused = eventPayload({ event: event('account.paused', account) as never, message: null });
    expect(contract.checkWebhook('account.paused', JSON.parse(JSON.stringify(paused)))).toEqual({ ok: true });
    // And it can fail: a payload without its email fields.
    expect(
      contract.checkWebhook('email.bounced', {
        type: 'email.bounced',
        created_at: new Date().toISOString(),
        data: {},
      }),
    ).toMatchObject({ ok: false });
  });

  it('answers every operation as documented', async () => {
    // Operations and the sign-in flow.
    await ok('GET', '/healthz', null);
    await ok('GET', '/readyz', null);
    await ok('GET', '/api/auth/session', null);
    const email = 'owner@contract.example';
    await ok('POST', '/api/auth/signup', null, { email, password: 'correct horse battery' });
    const verified = await ok('POST', '/api/auth/verify', null, {
      token: await mailedToken(env, email, '/verify-email'),
    });
    let browser = browserOf(verified);
    await ok('POST', '/api/auth/password-reset', null, { email });
    await ok('POST', '/api/auth/password-reset/confirm', null, {
      token: await mailedToken(env, email, '/reset-password'),
      password: 'a new correct horse',
    });
    browser = browserOf(
      await ok('POST', '/api/auth/login', null, { email, password: 'a new correct horse' }),
    );
    await ok('GET', '/api/auth/session', browser);
    // A 401 after authentication (and so with the RateLimit-* headers): the current password is wrong.
    await fails(401, 'invalid_credentials', 'POST', '/api/auth/password', browser, {
      current_password: 'not the current one',
      new_password: 'the third correct horse',
    });
    await ok('POST', '/api/auth/password', browser, {
      current_password: 'a new correct horse',
      new_password: 'the third correct horse',
    });
    await ok('POST', '/api/auth/resend-verification', browser);
    await fails(401, 'invalid_credentials', 'POST', '/api/auth/login', null, {
      email,
      password: 'wrong password!',
    });

    // Keys and the guided test: the dashboard's.
    await ok('GET', '/api/api-keys', browser);
    const key = (await ok('POST', '/api/api-keys', browser, { name: 'ci' })).json() as { id: string };
    await ok('DELETE', `/api/api-keys/${key.id}`, browser);
    await fails(403, 'session_required', 'GET', '/api/api-keys', tenant);
    await ok('POST', '/api/guided-test', browser);

    // Sending and the log.
    const sent = (await ok('POST', '/api/email/send', tenant, validSend)).json() as { id: string };
    await ok('POST', '/api/email/send/test', tenant, validSend);
    await fails(400, 'validation_error', 'POST', '/api/email/send', tenant, { ...validSend, to: 'x' });
    await fails(401, 'missing_api_key', 'POST', '/api/email/send', null, validSend);
    await ok('GET', '/api/emails?limit=1', tenant);
    const detail = (await ok('GET', `/api/emails/${sent.id}`, tenant)).json() as { events: { id: string }[] };
    await fails(404, 'not_found', 'GET', '/api/emails/00000000-0000-4000-8000-000000000000', tenant);
    await fails(400, 'validation_error', 'GET', '/api/emails?limit=1000', tenant);
    await ok('GET', '/api/emails?q=reset&domain=recipient.example', tenant);
    await fails(404, 'not_found', 'GET', `/api/emails/${sent.id}/raw`, tenant);
    // As the worker keeps them after an attempt.
    await env.keepRaw(tenant.accountId, sent.id, Buffer.from('Subject: s\r\n\r\nx\r\n'), Date.now());
    await ok('GET', `/api/emails/${sent.id}/raw`, tenant);
    await ok('POST', `/api/emails/${sent.id}/resend`, tenant);
    await fails(404, 'not_found', 'POST', '/api/emails/00000000-0000-4000-8000-000000000000/resend', tenant);

    // The account.
    await ok('GET', '/api/account', tenant);
    await ok('PATCH', '/api/account', tenant, { content_retention_days: 7 });
    await fails(400, 'validation_error', 'PATCH', '/api/account', tenant, { content_retention_days: 0 });
    await ok('GET', '/api/account/activity?days=7', tenant);
    await ok('GET', '/api/account/notices', tenant);

    // Domains.
    const domain = (await ok('POST', '/api/domains', tenant, { name: 'contract.example' })).json() as {
      id: string;
    };
    await fails(409, 'domain_exists', 'POST', '/api/domains', tenant, { name: 'contract.example' });
    await ok('GET', '/api/domains', tenant);
    await ok('GET', `/api/domains/${domain.id}`, tenant);
    await ok('PATCH', `/api/domains/${domain.id}`, tenant, { expire_after: 600, dkim_ed25519: true });
    await ok('POST', `/api/domains/${domain.id}/verify`, tenant);
    await ok('POST', `/api/domains/${domain.id}/dkim/rotate`, tenant);
    await ok('DELETE', `/api/domains/${domain.id}`, tenant);

    // Suppressions.
    await ok('POST', '/api/suppressions', tenant, { address: 'gone@example.org', reason: 'asked to stop' });
    await ok('POST', '/api/suppressions', tenant, { address: 'gone@example.org' });
    await ok('GET', '/api/suppressions', tenant);
    await ok('DELETE', '/api/suppressions/gone@example.org', tenant);
    await fails(404, 'not_found', 'DELETE', '/api/suppressions/gone@example.org', tenant);

    // Webhooks.
    const hook = (await ok('POST', '/api/webhooks', tenant, { url: receiver.url('/contract') })).json() as {
      id: string;
    };
    await ok('GET', '/api/webhooks', tenant);
    await ok('GET', `/api/webhooks/${hook.id}`, tenant);
    await ok('PATCH', `/api/webhooks/${hook.id}`, tenant, { description: 'contract' });
    await ok('GET', `/api/webhooks/${hook.id}/secret`, tenant);
    await ok('POST', `/api/webhooks/${hook.id}/rotate-secret`, tenant);
    await ok('POST', `/api/webhooks/${hook.id}/test`, tenant);
    const push = await until('the test push', async () => receiver.at('/contract')[0]);
    expect(contract.checkWebhook('webhook.test', JSON.parse(push.body))).toEqual({ ok: true });
    await ok('POST', `/api/webhooks/${hook.id}/replay`, tenant, { event_id: detail.events[0]!.id });
    await ok('POST', `/api/events/${detail.events[0]!.id}/replay`, tenant);
    await ok('GET', `/api/webhooks/${hook.id}/deliveries?limit=10`, tenant);
    await ok('DELETE', `/api/webhooks/${hook.id}`, tenant);
    await fails(404, 'not_found', 'GET', `/api/webhooks/${hook.id}`, tenant);

    // Teams: members and invitations, roles, two-factor sign-in, sessions, the audit log.
    const invited = 'member@contract.example';
    const member = (
      await ok('POST', '/api/members', browser, { email: invited, role: 'developer' })
    ).json() as {
      id: string;
    };
    await fails(409, 'member_exists', 'POST', '/api/members', browser, { email: invited, role: 'viewer' });
    await ok('GET', '/api/members', browser);
    await ok('PATCH', `/api/members/${member.id}`, browser, { role: 'viewer' });
    await ok('POST', '/api/auth/invitation', null, {
      token: await mailedToken(env, invited, '/accept-invite'),
    });
    await fails(429, 'rate_limit_exceeded', 'POST', `/api/members/${member.id}/invitation`, browser);
    // As if mailed a week ago: it may be mailed again.
    await env.services.db.kysely
      .updateTable('members')
      .set({ invite_expires_at: Date.now() })
      .where('id', '=', member.id)
      .execute();
    await ok('POST', `/api/members/${member.id}/invitation`, browser);
    const inviteToken = await mailedToken(env, invited, '/accept-invite');
    const viewer = browserOf(
      await ok('POST', '/api/auth/accept-invite', null, { token: inviteToken, password: 'a viewer horse' }),
    );
    await fails(400, 'invalid_token', 'POST', '/api/auth/accept-invite', null, {
      token: inviteToken,
      password: 'a viewer horse',
    });
    await fails(400, 'invalid_token', 'POST', '/api/auth/invitation', null, { token: inviteToken });
    await fails(409, 'invitation_accepted', 'POST', `/api/members/${member.id}/invitation`, browser);
    await fails(403, 'forbidden', 'POST', '/api/api-keys', viewer, { name: 'not mine' });
    const memberSessions = (await ok('GET', `/api/members/${member.id}/sessions`, browser)).json() as {
      data: { id: string }[];
    };
    await ok('DELETE', `/api/members/${member.id}/sessions/${memberSessions.data[0]!.id}`, browser);
    await fails(
      404,
      'not_found',
      'DELETE',
      `/api/members/${member.id}/sessions/${memberSessions.data[0]!.id}`,
      browser,
    );
    const password = 'the third correct horse';
    const other = browserOf(await ok('POST', '/api/auth/login', null, { email, password }));
    const own = (await ok('GET', '/api/auth/sessions', browser)).json() as {
      data: { id: string; current: boolean }[];
    };
    await ok('DELETE', `/api/auth/sessions/${own.data.find((x) => !x.current)!.id}`, browser);
    await fails(401, 'session_expired', 'GET', '/api/account', other);
    const setup = (await ok('POST', '/api/auth/totp/setup', browser)).json() as { secret: string };
    const confirmed = (
      await ok('POST', '/api/auth/totp/confirm', browser, {
        code: totpCode(setup.secret, env.services.clock.now()),
      })
    ).json() as { recovery_codes: string[] };
    await ok('PATCH', '/api/account/security', browser, { require_totp: true });
    const enrolling = browserOf(
      await ok('POST', '/api/auth/accept-invite', null, {
        token: await mailedToken(
          env,
          (
            (
              await ok('POST', '/api/members', browser, { email: 'new@contract.example', role: 'viewer' })
            ).json() as {
              email: string;
            }
          ).email,
          '/accept-invite',
        ),
        password: 'an enrolling horse',
      }),
    );
    await fails(403, 'totp_enrolment_required', 'GET', '/api/emails', enrolling);
    await fails(400, 'validation_error', 'POST', '/api/auth/totp/disable', browser, {
      code: confirmed.recovery_codes[0]!,
    });
    await ok('PATCH', '/api/account/security', browser, { require_totp: false });
    await fails(401, 'totp_required', 'POST', '/api/auth/login', null, { email, password });
    await ok('POST', '/api/auth/totp/disable', browser, { code: confirmed.recovery_codes[1]! });
    await ok('GET', '/api/audit?limit=5', browser);
    await ok('GET', '/api/audit?limit=5', tenant);
    await ok('DELETE', `/api/members/${member.id}`, browser);
    await fails(404, 'not_found', 'DELETE', `/api/members/${member.id}`, browser);

    await ok('POST', '/api/auth/logout', browser);
    await fails(401, 'session_expired', 'GET', '/api/account', browser);

    // Every operation answered with a 2xx at least once.
    const missing = operations()
      .filter(({ path, method }) => ![...answered].some((a) => a.startsWith(`${method} ${path} 2`)))
      .map(({ path, method }) => `${method} ${path}`);
    expect(missing).toEqual([]);
  });

  it('pushes to webhooks and shows each delivery as documented', async () => {
    await env.services.startWorker({ pollMs: 100 }, { schedule: [0, 150, 150, 150], pollMs: 50 });
    const events = ['email.delivered', 'email.bounced', 'email.delivery_delayed'];
    await ok('POST', '/api/webhooks', tenant, { url: receiver.url('/events'), events });
    const ids: string[] = [];
    for (const to of ['jane@dest.example', 'bounce-1@dest.example', 'defer-1@dest.example']) {
      ids.push(
        ((await ok('POST', '/api/email/send', tenant, { ...validSend, to })).json() as { id: string }).id,
      );
    }
    const pushes = await until('a push of each type', async () => {
      const got = receiver.at('/events').map((p) => JSON.parse(p.body) as { type: string });
      return events.every((t) => got.some((p) => p.type === t)) ? got : undefined;
    });
    for (const push of pushes)
      expect(contract.checkWebhook(push.type, push), push.type).toEqual({ ok: true });
    // The log shows the attempts (with their TLS details), the events and the pushes: all as documented.
    for (const id of ids) {
      const detail = (await ok('GET', `/api/emails/${id}`, tenant)).json() as {
        delivery_attempts: unknown[];
      };
      expect(detail.delivery_attempts.length).toBeGreaterThan(0);
    }
    await ok('GET', '/api/emails?status=bounced', tenant);
    await ok('GET', '/api/account', tenant);
  });

  it('catches an answer the document does not describe', () => {
    const email = (body: string, status = 200, contentType = 'application/json; charset=utf-8') =>
      contract.check({ method: 'GET', route: '/api/emails/:id', status, contentType, body });
    const row = {
      id: 'm1',
      status: 'queued',
      category: null,
      from: 'a@acme.example',
      to: 'b@example.org',
      subject: 's',
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
      attempts: 0,
      next_attempt_at: null,
      next: null,
    };
    const list = (data: object[]) =>
      contract.check({
        method: 'GET',
        route: '/api/emails',
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ data, next_cursor: null }),
      });
    expect(list([row])).toEqual({ ok: true });
    // A field of the wrong type, a missing one, one the document does not know.
    expect(list([{ ...row, attempts: '0' }])).toMatchObject({ ok: false });
    expect(list([{ ...row, subject: undefined }])).toMatchObject({ ok: false });
    expect(list([{ ...row, secret: 'x' }])).toMatchObject({ ok: false });
    expect(list([{ ...row, status: 'lost' }])).toMatchObject({ ok: false });
    // A status, a media type or an error code not documented for the operation.
    expect(email('not_found: no email', 404, 'text/plain; charset=utf-8')).toEqual({ ok: true });
    expect(email('x', 418, 'text/plain')).toEqual({ ok: false, problem: 'status 418 is not documented' });
    expect(email('{}', 404, 'application/json')).toMatchObject({ ok: false });
    expect(email('plan_limit: no', 403, 'text/plain')).toMatchObject({ ok: false });
    // Routes outside the document (the dashboard's pages, /metrics) are not judged.
    expect(
      contract.check({ method: 'GET', route: '/*', status: 200, contentType: 'text/html', body: '' }),
    ).toEqual({
      skipped: true,
    });
    // The operation of a path as a browser asks for it (e2e/browser.ts): a literal segment wins.
    expect(contract.route('/api/emails/0192f0a4-7c1e-7000-8000-000000000001')).toBe('/api/emails/:id');
    expect(contract.route('/api/emails/x/raw')).toBe('/api/emails/:id/raw');
    expect(contract.route('/api/account/activity')).toBe('/api/account/activity');
    const both = new ResponseContract({
      paths: { '/api/x/{id}': {}, '/api/x/new': {}, '/api/x/{id}/y': {} },
    });
    expect(both.route('/api/x/new')).toBe('/api/x/new');
    expect(both.route('/api/x/old')).toBe('/api/x/:id');
    expect(both.route('/api/x/new/y')).toBe('/api/x/:id/y');
    expect(contract.route('/api/auth/sessions/abc')).toBe('/api/auth/sessions/:id');
    expect(contract.route('/api/members/m1/sessions/s1')).toBe('/api/members/:id/sessions/:sid');
    expect(contract.route('/api/emails/')).toBeUndefined();
    expect(contract.route('/api/nothing/here')).toBeUndefined();
    // An API route the document forgot is a finding.
    expect(
      contract.check({
        method: 'POST',
        route: '/api/forgotten/:id',
        status: 200,
        contentType: 'text/plain',
        body: '',
      }),
    ).toEqual({ ok: false, problem: 'POST /api/forgotten/{id} is not in the document' });
  });
});

describe('the contract of each test app', () => {
  // Apps that document the same API share one compiled contract (helpers/openapi-contract.ts); an app
  // whose routes differ is judged by its own document, never by another app's.
  const appAnswering = async (type: 'integer' | 'string') => {
    const app = Fastify();
    // Answers as the handler returns them, as txmail's apps do: no schema coerces them.
    app.setSerializerCompiler(describeOnly);
    await app.register(swagger, { openapi: { openapi: '3.1.0', info: { title: 't', version: '1' } } });
    const contract = recordContract(app, 'http://localhost');
    app.get(
      '/api/n',
      { schema: { response: { 200: { type: 'object', properties: { n: { type } }, required: ['n'] } } } },
      async () => ({ n: 1 }),
    );
    await app.ready();
    return { app, contract };
  };

  it('judges each app by its own document', async () => {
    // This test's findings are its own: kept out of the run's list, in a folder of the test's.
    const runDir = process.env[CONTRACT_DIR_VARIABLE];
    process.env[CONTRACT_DIR_VARIABLE] = mkdtempSync(join(tmpdir(), 'txmail-contract-test-'));
    // The file's findings so far are kept for its own report (openapi-contract-file.ts).
    const earlier = takeFindings();
    const apps = [await appAnswering('integer'), await appAnswering('integer'), await appAnswering('string')];
    try {
      for (const { app } of apps)
        expect((await app.inject({ method: 'GET', url: '/api/n' })).statusCode).toBe(200);
      // Only the third app documents a string, and answers a number.
      expect(takeFindings().map((f) => `${f.route} ${f.status}: ${f.problem}`)).toEqual([
        expect.stringMatching(/^\/api\/n 200: \/n must be string/),
      ]);
    } finally {
      for (const { app, contract } of apps) {
        contract.flush();
        await app.close();
      }
      rmSync(process.env[CONTRACT_DIR_VARIABLE]!, { recursive: true, force: true });
      if (runDir === undefined) delete process.env[CONTRACT_DIR_VARIABLE];
      else process.env[CONTRACT_DIR_VARIABLE] = runDir;
      takeFindings();
      for (const finding of earlier) recordFinding(finding);
    }
  });
});
