// Hostile input on the sending side: every parser of the API that takes text from outside (the send
// request and its addresses, domain names, webhook URLs, the log and suppression filters, ids and
// cursors, Idempotency-Key) runs in time linear in its input. Each is fed generated adversarial inputs
// up to 1 MiB, the known-bad shapes first. A parser's cost per byte is compared with the same run's
// smaller inputs (test/helpers/linear-time.ts); a whole request's with a request of the same size that
// the schema refuses by a field's name alone (hostile-shapes.ts). Never with a wall-clock constant.
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../src/db/schema.js';
import { parseDomainName } from '../src/domains/domain-name.js';
import { AppError } from '../src/errors.js';
import { parseAddress } from '../src/messages/address.js';
import { validateSend } from '../src/messages/send-request.js';
import { normalizeAddress } from '../src/suppressions/suppressions.js';
import { parseRetryAfter } from '../src/webhooks/retry-policy.js';
import { webhookUrlProblem } from '../src/webhooks/webhook-url.js';
import { databaseKinds } from './helpers/databases.js';
import { assertAsCheapAsBaseline, assertLinearForShapes } from './helpers/hostile-shapes.js';
import { fill, measureGrowth } from './helpers/linear-time.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

/** `fn` as a validator that throws AppError on bad input: any other error fails the test. */
function refusing(fn: (s: string) => unknown): (s: string) => void {
  return (s) => {
    try {
      fn(s);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
    }
  };
}

describe('the parsers of the API on hostile input', () => {
  it.each([
    ['alone', (s: string) => s],
    ['as the display name', (s: string) => `${s} <jane@example.com>`],
    ['as a quoted display name', (s: string) => `"${s}" <jane@example.com>`],
    ['inside the brackets', (s: string) => `Jane <${s}@example.com>`],
    ['as the local part', (s: string) => `${s}@example.com`],
    ['as the domain', (s: string) => `jane@${s}`],
  ])('parse an address in linear time with the hostile text %s', async (_where, wrap) => {
    await assertLinearForShapes((s) => parseAddress(s), wrap);
  });

  it.each(['from', 'to', 'subject', 'message'] as const)(
    'validate a send request in linear time with a hostile "%s"',
    async (field) => {
      await assertLinearForShapes(
        refusing((s) => validateSend({ ...validSend, [field]: s })),
        undefined,
        { numRuns: 2 },
      );
    },
  );

  it('normalise a suppressed address in linear time', async () => {
    await assertLinearForShapes(refusing((s) => normalizeAddress(s, 'address')));
  });

  it.each([
    ['alone', (s: string) => s],
    ['as a label', (s: string) => `${s}.example`],
    ['in brackets', (s: string) => `[${s}]`],
  ])('parse a domain name in linear time with the hostile text %s', async (_where, wrap) => {
    await assertLinearForShapes((s) => parseDomainName(s), wrap);
  });

  it.each([
    ['alone', (s: string) => s],
    ['as the host', (s: string) => `https://${s}/hook`],
    ['as the path', (s: string) => `https://hooks.example/${s}`],
  ])('check a webhook URL in linear time with the hostile text %s', async (_where, wrap) => {
    await assertLinearForShapes((s) => webhookUrlProblem(s, false), wrap);
  });

  it.each([
    ['alone', (s: string) => s],
    ['as a run of digits', (s: string) => `1${s.replace(/\D/g, '0')}`],
    ['as digits then something else', (s: string) => `${s.replace(/\D/g, '1')} s`],
    ['as a date', (s: string) => `Sun, 22 Nov 2026 ${s} GMT`],
  ])(
    "read a webhook endpoint's Retry-After in linear time with the hostile text %s",
    async (_where, wrap) => {
      await assertLinearForShapes((s) => parseRetryAfter(s, Date.UTC(2026, 10, 22)), wrap, { numRuns: 2 });
    },
  );
});

// Every request here is refused before anything is stored, so one database is enough.
describe('the API on hostile input', () => {
  const kind = databaseKinds.find((k) => k.name === 'sqlite')!;
  let env: TestEnv;
  let tenant: Tenant;

  beforeAll(async () => {
    env = await startTestEnv(kind);
    tenant = await createTenant(env.services, { domain: 'acme.example', plan: 'pro' });
  });
  afterAll(() => env.close());

  const inject = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    env.app.inject({
      method,
      url,
      headers: {
        'x-api-key': tenant.apiKey,
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  const sendTest = (body: object) => inject('POST', '/api/email/send/test', { ...validSend, ...body });

  it.each([
    ['subject', 'A\ud800B'],
    ['subject', 'A\udc00'],
    ['message', '<p>\udbff</p>'],
    ['from', 'Ac\ud800me <noreply@acme.example>'],
  ])(
    'refuses half of a surrogate pair in "%s" (no character: it went out as three U+FFFD)',
    async (field, value) => {
      const res = await sendTest({ [field]: value });
      expect(res.statusCode).toBe(400);
      expect(res.body).toBe(
        `validation_error: "${field}" holds half of a UTF-16 surrogate pair, not a character`,
      );
      // A whole pair is a character.
      expect((await sendTest({ subject: 'Party \ud83c\udf89' })).statusCode).toBe(200);
    },
  );

  it.each([
    ['the reported 60,000 spaces', 60_000],
    ['a megabyte of spaces', 1 << 20],
  ])(
    'refuses a "from" of %s between two letters with a 400 as cheap as any request of its size',
    async (_name, spaces) => {
      const hostile = `a${' '.repeat(spaces)}b`;
      const res = await sendTest({ from: hostile });
      expect(res.statusCode).toBe(400);
      expect(res.body).toBe('validation_error: "from" must be at most 1024 characters');
      // The baseline: the same text in a field the schema refuses by its name alone.
      await assertAsCheapAsBaseline(
        () => sendTest({ from: hostile }),
        () => sendTest({ padding: hostile }),
        { sizes: [spaces], examples: [], numRuns: 1 },
      );
    },
  );

  const uuid = '01a20a0e-dc82-703c-9978-ba43eda39597';
  const hook = 'https://hooks.example/';
  const post = (url: string, body: object) => inject('POST', url, body);
  type Call = (s: string) => ReturnType<typeof inject>;
  // Each route with the hostile text in one field, and its baseline: the same text, same size, under a
  // name the schema refuses outright (an unknown body field or query parameter, a route that is not).
  // A query string or a path travels in the request head, which Node's parser cuts at 16 KiB (see the
  // 431 test below): those are tried up to that size, bodies up to 1 MiB.
  const HEAD_SIZES = [1 << 10, 4 << 10, 16 << 10];
  type Route = [string, Call, Call, (readonly number[])?];
  const routes: Route[] = [
    ...(['from', 'to', 'subject'] as const).map((field): [string, Call, Call] => [
      `POST /api/email/send/test "${field}"`,
      (s) => sendTest({ [field]: s }),
      (s) => sendTest({ padding: s }),
    ]),
    [
      'POST /api/domains "name"',
      (s) => post('/api/domains', { name: s }),
      (s) => post('/api/domains', { name: 'a.example', padding: s }),
    ],
    [
      'POST /api/webhooks "url"',
      (s) => post('/api/webhooks', { url: s }),
      (s) => post('/api/webhooks', { url: hook, padding: s }),
    ],
    [
      'POST /api/webhooks "description"',
      (s) => post('/api/webhooks', { url: hook, description: s }),
      (s) => post('/api/webhooks', { url: hook, padding: s }),
    ],
    [
      'POST /api/webhooks/:id/replay "event_id"',
      (s) => post(`/api/webhooks/${uuid}/replay`, { event_id: s }),
      (s) => post(`/api/webhooks/${uuid}/replay`, { event_id: uuid, padding: s }),
    ],
    [
      'POST /api/suppressions "address"',
      (s) => post('/api/suppressions', { address: s }),
      (s) => post('/api/suppressions', { address: 'a@b.example', padding: s }),
    ],
    [
      'POST /api/suppressions "reason"',
      (s) => post('/api/suppressions', { address: 'a@b.example', reason: s }),
      (s) => post('/api/suppressions', { address: 'a@b.example', padding: s }),
    ],
    [
      'POST /api/auth/login "email"',
      (s) => post('/api/auth/login', { email: s, password: 'correct horse' }),
      (s) => post('/api/auth/login', { email: 'a@b.example', password: 'correct horse', padding: s }),
    ],
    [
      'POST /api/auth/signup "password"',
      (s) => post('/api/auth/signup', { email: 'new@customer.example', password: s }),
      (s) => post('/api/auth/signup', { email: 'new@customer.example', password: 'p', padding: s }),
    ],
    ...(['to', 'from', 'since', 'until', 'cursor'] as const).map((name): Route => [
      `GET /api/emails ?${name}=`,
      (s) => inject('GET', `/api/emails?${name}=${query(s)}`),
      (s) => inject('GET', `/api/emails?padding=${query(s)}`),
      HEAD_SIZES,
    ]),
    ...(['address', 'cursor'] as const).map((name): Route => [
      `GET /api/suppressions ?${name}=`,
      (s) => inject('GET', `/api/suppressions?${name}=${query(s)}`),
      (s) => inject('GET', `/api/suppressions?padding=${query(s)}`),
      HEAD_SIZES,
    ]),
    [
      'GET /api/webhooks/:id/deliveries ?cursor=',
      (s) => inject('GET', `/api/webhooks/${uuid}/deliveries?cursor=${query(s)}`),
      (s) => inject('GET', `/api/webhooks/${uuid}/deliveries?padding=${query(s)}`),
      HEAD_SIZES,
    ],
    [
      'DELETE /api/suppressions/:address',
      (s) => inject('DELETE', `/api/suppressions/${query(s)}`),
      (s) => inject('DELETE', `/api/nothing/${query(s)}`),
      HEAD_SIZES,
    ],
  ];

  it.each(routes)(
    'answers %s with hostile text as cheaply as its baseline of the same size, never with a 5xx',
    async (_route, hostile, baseline, sizes) => {
      await assertAsCheapAsBaseline(
        async (s) => {
          const res = await hostile(s);
          expect(res.statusCode, res.body).toBeLessThan(500);
        },
        baseline,
        sizes ? { sizes } : {},
      );
    },
  );

  it('refuses a request head over 16 KiB (a query string, a path, a header) before any route reads it', async () => {
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = env.app.server.address() as AddressInfo;
    // Raw bytes on a socket: the server may answer and close before a client library finishes writing.
    const head = (path: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) => {
        const lines = [`GET ${path} HTTP/1.1`, 'Host: 127.0.0.1', `x-api-key: ${tenant.apiKey}`];
        for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
        let answer = '';
        const socket = net.connect(port, '127.0.0.1', () => socket.end(`${lines.join('\r\n')}\r\n\r\n`));
        socket.on('data', (chunk: Buffer) => {
          answer += chunk.toString('latin1');
          const status = /^HTTP\/1\.1 (\d{3})/.exec(answer);
          if (status) {
            resolve(Number(status[1]));
            socket.destroy();
          }
        });
        socket.on('error', reject);
      });
    expect(await head(`/api/emails?to=${'a'.repeat(15 << 10)}`)).toBe(400);
    expect(await head(`/api/emails?to=${'a'.repeat(17 << 10)}`)).toBe(431);
    expect(await head('/api/emails', { 'idempotency-key': 'k'.repeat(17 << 10) })).toBe(431);
  });

  it('answers a list of events of any length in time linear in its length', async () => {
    await measureGrowth(
      (events: string[]) => post('/api/webhooks', { url: hook, events }),
      (size) => Array.from({ length: size >> 4 }, () => 'email.delivered'),
    );
  });

  it('answers an Idempotency-Key of any length in time linear in its length', async () => {
    for (const unit of ['a', ' ', '~ ']) {
      await measureGrowth(
        async (key: string) => {
          const res = await inject('POST', '/api/email/send/test', validSend, { 'idempotency-key': key });
          expect(res.statusCode).toBe(400);
        },
        (size) => fill({ prefix: 'k', unit, suffix: 'k' }, size),
      );
    }
  });

  it.each([
    [
      'POST /api/email/send "from"',
      () => sendTest({ from: `a${' '.repeat(2000)}b` }),
      '"from" must be at most 1024 characters',
    ],
    [
      'POST /api/email/send "to"',
      () => sendTest({ to: 'x'.repeat(1025) }),
      '"to" must be at most 1024 characters',
    ],
    [
      'POST /api/email/send "subject"',
      () => sendTest({ subject: ' '.repeat(2049) }),
      '"subject" must be at most 2048 characters',
    ],
    [
      'POST /api/domains "name"',
      () => inject('POST', '/api/domains', { name: `${'a'.repeat(252)}.com` }),
      '"name" must be at most 255 characters',
    ],
    [
      'POST /api/webhooks "events"',
      () =>
        inject('POST', '/api/webhooks', {
          url: 'https://hooks.example/',
          events: Array.from({ length: 100 }, () => 'email.delivered'),
        }),
      `"events" must have at most ${WEBHOOK_EVENT_TYPES.length} items`,
    ],
    [
      'POST /api/webhooks/:id/replay "event_id"',
      () =>
        inject('POST', '/api/webhooks/01a20a0e-dc82-703c-9978-ba43eda39597/replay', {
          event_id: 'e'.repeat(65),
        }),
      '"event_id" must be at most 64 characters',
    ],
    [
      'GET /api/emails ?to=',
      () => inject('GET', `/api/emails?to=${'a'.repeat(1025)}`),
      '"to" must be at most 1024 characters',
    ],
    [
      'GET /api/emails ?since=',
      () => inject('GET', `/api/emails?since=${'1'.repeat(65)}`),
      '"since" must be at most 64 characters',
    ],
    [
      'GET /api/emails ?cursor=',
      () => inject('GET', `/api/emails?cursor=${'c'.repeat(65)}`),
      '"cursor" must be at most 64 characters',
    ],
    [
      'GET /api/suppressions ?address=',
      () => inject('GET', `/api/suppressions?address=${'a'.repeat(321)}`),
      '"address" must be at most 320 characters',
    ],
    [
      'GET /api/webhooks/:id/deliveries ?cursor=',
      () =>
        inject(
          'GET',
          `/api/webhooks/01a20a0e-dc82-703c-9978-ba43eda39597/deliveries?cursor=${'c'.repeat(65)}`,
        ),
      '"cursor" must be at most 64 characters',
    ],
  ])('refuses an over-long %s with 400 naming the field', async (_route, call, message) => {
    const res = await call();
    expect(res.statusCode).toBe(400);
    expect(res.body.startsWith(`validation_error: ${message}`), res.body).toBe(true);
  });
});

/** Percent-encodes any string (a lone surrogate as U+FFFD, as UTF-8 would carry it). */
function query(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    out += /[A-Za-z0-9._~-]/.test(String.fromCharCode(byte))
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}
