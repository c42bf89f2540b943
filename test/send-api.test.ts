import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

describe.each(databaseKinds)('send API on $name', (kind) => {
  let env: TestEnv;
  let tenant: Tenant;

  beforeAll(async () => {
    env = await startTestEnv(kind);
    tenant = await createTenant(env.services, { domain: 'acme.example' });
  });
  afterAll(() => env.close());

  const send = (body: unknown, headers: Record<string, string> = {}, url = '/api/email/send') =>
    env.app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json', ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('queues a valid message and answers only after it and its email.queued event are stored', async () => {
    const res = await send(validSend);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json() as { id: string; status: string };
    expect(body.status).toBe('queued');

    const row = (await env.message(tenant.accountId, body.id))!;
    expect(row).toMatchObject({
      account_id: tenant.accountId,
      status: 'queued',
      from_name: 'Acme',
      from_email: 'noreply@acme.example',
      to_name: 'Jane Doe',
      to_email: 'jane@recipient.example',
      subject: validSend.subject,
      html: validSend.message,
      attempts: 0,
    });
    expect(row.next_attempt_at).toBeTypeOf('number');
    const events = await env.events(tenant.accountId, body.id);
    expect(events.map((e) => e.type)).toEqual(['email.queued']);
  });

  it('counts a real send toward the monthly usage and a test send not', async () => {
    const before = await env.monthUsage(tenant.accountId, new Date().toISOString().slice(0, 7));
    expect((await send(validSend)).statusCode).toBe(200);
    expect((await send(validSend, {}, '/api/email/send/test')).statusCode).toBe(200);
    const after = await env.monthUsage(tenant.accountId, new Date().toISOString().slice(0, 7));
    expect(after).toBe(before + 1);
  });

  it('records a test send with status test and delivers nothing', async () => {
    const res = await send(validSend, {}, '/api/email/send/test');
    expect(res.statusCode).toBe(200);
    const body = res.json() as { id: string; status: string; warnings: string[] };
    expect(body).toMatchObject({ status: 'test', warnings: [] });
    const row = await env.message(tenant.accountId, body.id);
    expect(row).toMatchObject({ status: 'test', next_attempt_at: null });
  });

  it('accepts an internationalised domain and stores it as punycode', async () => {
    const res = await send({ ...validSend, to: 'José <jose@bücher.example>' });
    expect(res.statusCode).toBe(200);
    const row = await env.message(tenant.accountId, (res.json() as { id: string }).id);
    expect(row).toMatchObject({
      to_name: 'José',
      to_email: 'jose@xn--bcher-kva.example',
      to_domain: 'xn--bcher-kva.example',
    });
  });

  it.each([
    [
      'a missing field',
      { from: validSend.from, to: validSend.to, subject: 's' },
      400,
      'validation_error: "message" is required',
    ],
    [
      'an unknown field',
      { ...validSend, cc: 'x@y.example' },
      400,
      'validation_error: unknown field "cc" in the body',
    ],
    [
      'a non-string field',
      { ...validSend, subject: 42 },
      400,
      'validation_error: "subject" must be a string',
    ],
    [
      'an array of recipients',
      { ...validSend, to: ['a@b.example', 'c@d.example'] },
      400,
      'validation_error: "to" must be a string with one recipient (one email per call)',
    ],
    [
      'two recipients in one string',
      { ...validSend, to: 'a@b.example, c@d.example' },
      400,
      'validation_error: "to" must be exactly one email address (one recipient per call)',
    ],
    [
      'an invalid address',
      { ...validSend, to: 'not-an-address' },
      400,
      'validation_error: "to" is not an email address: "not-an-address"',
    ],
    [
      'a domain without a dot',
      { ...validSend, to: 'a@localhost' },
      400,
      'validation_error: "to" has an invalid domain: "localhost"',
    ],
    [
      'a header injection in the subject',
      { ...validSend, subject: 'Hi\r\nBcc: victim@x.example' },
      400,
      'validation_error: "subject" must not contain line breaks or NUL characters',
    ],
    [
      'a header injection in from',
      { ...validSend, from: 'a@acme.example\nBcc: v@x.example' },
      400,
      'validation_error: "from" must not contain line breaks or NUL characters',
    ],
    [
      'a header injection in to',
      { ...validSend, to: 'a@b.example\r\nX: y' },
      400,
      'validation_error: "to" must not contain line breaks or NUL characters',
    ],
    [
      'a NUL in the subject',
      { ...validSend, subject: 'a\u0000b' },
      400,
      'validation_error: "subject" must not contain the NUL character (U+0000)',
    ],
    [
      'an empty subject',
      { ...validSend, subject: '   ' },
      400,
      'validation_error: "subject" must not be empty',
    ],
    [
      'a subject over 998 characters',
      { ...validSend, subject: 'x'.repeat(999) },
      400,
      'validation_error: "subject" must be at most 998 characters',
    ],
    [
      'a from of 60,000 spaces between two letters (once a 2-second freeze)',
      { ...validSend, from: `a${' '.repeat(60_000)}b` },
      400,
      'validation_error: "from" must be at most 1024 characters',
    ],
    [
      'a to over 1024 characters',
      { ...validSend, to: `${'n'.repeat(1000)} <jane@recipient.example>` },
      400,
      'validation_error: "to" must be at most 1024 characters',
    ],
    [
      'a megabyte of subject',
      { ...validSend, subject: 's'.repeat(1 << 20) },
      400,
      'validation_error: "subject" must be at most 2048 characters',
    ],
    ['an empty message', { ...validSend, message: '' }, 400, 'validation_error: "message" must not be empty'],
    ['a JSON array body', [validSend], 400, 'validation_error: the body must be a JSON object'],
    ['a JSON null body', 'null', 400, 'validation_error: the body must be a JSON object'],
    ['a body that is not JSON', '{"from": ', 400, 'invalid_json: '],
    ['an empty body', '', 400, 'invalid_json: the body is empty; send a JSON object'],
    ['a prototype-poisoning body', '{"__proto__": {"x": 1}}', 400, 'invalid_json: '],
  ])('refuses %s', async (_name, body, status, text) => {
    const res = await send(body);
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body.startsWith(text)).toBe(true);
    expect(res.body).not.toMatch(/\n/);
  });

  it('accepts a subject of exactly 998 characters', async () => {
    expect((await send({ ...validSend, subject: 'x'.repeat(998) })).statusCode).toBe(200);
  });

  it('accepts the longest address fields: a 256-character name, a 64-octet local part, spaces around', async () => {
    const to = `  "${'n'.repeat(256)}" <${'l'.repeat(64)}@${'d'.repeat(63)}.${'e'.repeat(63)}.recipient.example>  `;
    const res = await send({ ...validSend, to, subject: ` ${'x'.repeat(998)}${' '.repeat(1000)}` });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses a body that is not sent as JSON with 415', async () => {
    const res = await send('from=a', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(415);
    expect(res.body).toBe('unsupported_media_type: send the body as Content-Type: application/json');
    const plain = await send(JSON.stringify(validSend), { 'content-type': 'text/plain' });
    expect(plain.statusCode).toBe(415);
    // A body under a content coding (read as its compressed bytes before): refused as such.
    for (const coding of ['gzip', 'br']) {
      const coded = await send(JSON.stringify(validSend), {
        'content-type': 'application/json',
        'content-encoding': coding,
      });
      expect(coded.statusCode).toBe(415);
      expect(coded.body).toBe(
        `unsupported_media_type: send the JSON without a content coding, not ${coding} (Content-Encoding)`,
      );
    }
    const identity = await send(validSend, { 'content-encoding': 'identity' });
    expect(identity.statusCode, identity.body).toBe(200);
  });

  it('refuses a body over 10 MiB with 413', async () => {
    const res = await send({ ...validSend, message: 'x'.repeat(10 * 1024 * 1024 + 1) });
    expect(res.statusCode).toBe(413);
    expect(res.body).toBe('payload_too_large: the request body must be at most 10 MiB');
  });

  it('refuses a missing, malformed, unknown or revoked key with 401', async () => {
    const noKey = await env.app.inject({ method: 'POST', url: '/api/email/send', payload: validSend });
    expect(noKey.statusCode).toBe(401);
    expect(noKey.body).toBe('missing_api_key: send your API key in the x-api-key header');
    for (const key of ['nonsense', 'txm_' + 'A'.repeat(43)]) {
      const res = await send(validSend, { 'x-api-key': key });
      expect(res.statusCode).toBe(401);
      expect(res.body).toMatch(/^invalid_api_key: /);
    }
    const other = await createTenant(env.services, { domain: 'other.example' });
    expect((await send(validSend, { 'x-api-key': other.apiKey })).statusCode).toBe(403); // works, but wrong domain
    await env.revokeKey(other.accountId, other.apiKeyId, Date.now());
    env.services.auth.invalidate();
    const revoked = await send(validSend, { 'x-api-key': other.apiKey });
    expect(revoked.statusCode).toBe(401);
  });

  it('refuses an API key sent from a browser (Origin header) with 403 and no CORS headers', async () => {
    const res = await send(validSend, { origin: 'https://shop.example' });
    expect(res.statusCode).toBe(403);
    expect(res.body).toMatch(/^browser_request_refused: API keys must only be used from servers/);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await env.app.inject({
      method: 'OPTIONS',
      url: '/api/email/send',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a sandboxed account and a from outside the verified domains with 403', async () => {
    const sandboxed = await createTenant(env.services);
    const res = await send(validSend, { 'x-api-key': sandboxed.apiKey });
    expect(res.statusCode).toBe(403);
    expect(res.body).toMatch(/^account_sandboxed: /);
    const test = await send(validSend, { 'x-api-key': sandboxed.apiKey }, '/api/email/send/test');
    expect(test.statusCode).toBe(200);
    expect((test.json() as { warnings: string[] }).warnings.map((w) => w.split(':')[0])).toEqual([
      'account_sandboxed',
      'domain_not_verified',
    ]);

    const wrongDomain = await send({ ...validSend, from: 'a@elsewhere.example' });
    expect(wrongDomain.statusCode).toBe(403);
    expect(wrongDomain.body).toBe(
      'domain_not_verified: "elsewhere.example" is not a verified domain of this account; send from a verified domain',
    );
  });

  it('refuses every send of a suspended account with 403', async () => {
    const t = await createTenant(env.services, { domain: 'suspended.example' });
    await env.setSuspended(t.accountId, Date.now());
    const res = await send({ ...validSend, from: 'a@suspended.example' }, { 'x-api-key': t.apiKey });
    expect(res.statusCode).toBe(403);
    expect(res.body).toMatch(/^account_suspended: /);
  });

  it('answers a repeated Idempotency-Key with the first response and stores one message', async () => {
    const key = `order-${Math.random()}`;
    const first = await send(validSend, { 'idempotency-key': key });
    const again = await send(validSend, { 'idempotency-key': key });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const other = await send({ ...validSend, subject: 'different' }, { 'idempotency-key': key });
    expect(other.statusCode).toBe(422);
    expect(other.body).toMatch(/^idempotency_key_reused: /);
    const rows = (await env.messagesOf(tenant.accountId)).filter(
      (m) => m.id === (first.json() as { id: string }).id,
    );
    expect(rows).toHaveLength(1);
  });

  it('replays a request accepted before a pause; only new mail gets 403 account_paused', async () => {
    const t = await createTenant(env.services, { domain: 'paused.example' });
    const sendAs = (body: unknown, headers: Record<string, string>) =>
      env.app.inject({
        method: 'POST',
        url: '/api/email/send',
        headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json', ...headers },
        payload: JSON.stringify(body),
      });
    const body = { ...validSend, from: 'a@paused.example' };
    const first = await sendAs(body, { 'idempotency-key': 'before-the-pause' });
    expect(first.statusCode, first.body).toBe(200);
    const moved = await env.moveReputation({
      accountId: t.accountId,
      from: 'healthy',
      fromChangedAt: null,
      to: 'paused',
      reason: 'the bounce rate is too high',
      now: Date.now(),
    });
    expect(moved).toBe(true);
    env.services.auth.invalidate();
    // The client's retry of the accepted request: its first answer, no second message.
    const again = await sendAs(body, { 'idempotency-key': 'before-the-pause' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    // New mail, with a new key or none: refused.
    const fresh = await sendAs(body, { 'idempotency-key': 'after-the-pause' });
    expect(fresh.statusCode).toBe(403);
    expect(fresh.body).toMatch(/^account_paused: sending from this account is paused: the bounce rate/);
    expect((await sendAs(body, {})).statusCode).toBe(403);
    const rows = await env.messagesOf(t.accountId);
    expect(rows).toHaveLength(1);
  });

  // A repeat while the first is still being stored (409 idempotency_in_progress): over HTTP the two
  // race, so test/unit/accept-in-flight.test.ts holds the write to show it.

  it('refuses a malformed Idempotency-Key with 400', async () => {
    const res = await send(validSend, { 'idempotency-key': 'x'.repeat(257) });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/^invalid_idempotency_key: /);
  });

  it('accepts the last email of the monthly cap and refuses the next with 429 and Retry-After', async () => {
    const t = await createTenant(env.services, { domain: 'capped.example', plan: 'free' });
    const month = new Date().toISOString().slice(0, 7);
    await env.setMonthUsage(t.accountId, month, 999);
    const body = { ...validSend, from: 'a@capped.example' };
    expect((await send(body, { 'x-api-key': t.apiKey })).statusCode).toBe(200);
    const over = await send(body, { 'x-api-key': t.apiKey });
    expect(over.statusCode).toBe(429);
    expect(over.body).toMatch(/^monthly_quota_exceeded: the free plan allows 1000 emails per month/);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await send(body, { 'x-api-key': t.apiKey }, '/api/email/send/test')).statusCode).toBe(200);
  });

  it('accepts exactly the remaining quota when many sends race', async () => {
    const t = await createTenant(env.services, { domain: 'race.example', plan: 'free' });
    const month = new Date().toISOString().slice(0, 7);
    await env.setMonthUsage(t.accountId, month, 980);
    const results = await Promise.all(
      Array.from({ length: 60 }, () =>
        send({ ...validSend, from: 'a@race.example' }, { 'x-api-key': t.apiKey }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(20);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(40);
  });
});
