// The API's listener against clients that hold connections or send what Node's HTTP parser refuses
// (SECURITY.md, "HTTP API"): a request must arrive whole within TXMAIL_HTTP_REQUEST_TIMEOUT (408,
// closed), however it trickles; one peer holds at most TXMAIL_HTTP_MAX_CONNECTIONS_PER_IP connections;
// a malformed request is answered `code: message` in text/plain; a body in another charset than UTF-8
// is refused; one Idempotency-Key at most. Raw sockets: a client library would not send these.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { limitPipelining, MAX_PIPELINED } from '../src/http/connection-limits.js';
import { databaseKinds } from './helpers/databases.js';
import { until } from './helpers/wait.js';
import { writeThenRead } from './helpers/write-then-read.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;
const PER_PEER = 3;
/** A reverse proxy in front of the API: every client behind it comes from its address. */
const PROXY = '127.0.0.11';

interface Answer {
  status: number | undefined;
  type: string | undefined;
  retryAfter: string | undefined;
  body: string;
}

/** A raw connection from `localAddress`: what it writes, and the answer it gets before the server closes it. */
class RawClient {
  private received = '';
  readonly closed: Promise<Answer>;
  readonly connected: Promise<void>;
  private readonly socket: net.Socket;

  constructor(port: number, localAddress = '127.0.0.1') {
    this.socket = net.connect({ port, host: '127.0.0.1', localAddress });
    this.connected = new Promise((resolve) => this.socket.once('connect', () => resolve()));
    this.socket.on('data', (chunk: Buffer) => (this.received += chunk.toString('latin1')));
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve(this.answer())));
  }

  write(text: string): void {
    if (!this.socket.destroyed) this.socket.write(text);
  }

  get isClosed(): boolean {
    return this.socket.destroyed;
  }

  end(): Promise<Answer> {
    this.socket.end();
    return this.closed;
  }

  private answer(): Answer {
    const [head = '', body = ''] = this.received.split('\r\n\r\n');
    const status = /^HTTP\/1\.1 (\d{3})/.exec(head)?.[1];
    return {
      status: status === undefined ? undefined : Number(status),
      type: /^content-type: *([^\r\n]*)/im.exec(head)?.[1],
      retryAfter: /^retry-after: *([^\r\n]*)/im.exec(head)?.[1],
      body,
    };
  }
}

const postHead = (path: string, length: number, headers: string[] = []) =>
  [
    `POST ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    `Content-Length: ${length}`,
    ...headers,
    '',
    '',
  ].join('\r\n');

describe('the API listener', () => {
  let env: TestEnv;
  let tenant: Tenant;
  let port: number;

  beforeAll(async () => {
    env = await startTestEnv(sqlite, {
      env: {
        TXMAIL_HTTP_REQUEST_TIMEOUT: '1',
        TXMAIL_HTTP_MAX_CONNECTIONS_PER_IP: String(PER_PEER),
        TXMAIL_TRUST_PROXY: PROXY,
      },
    });
    tenant = await createTenant(env.services);
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    port = (env.app.server.address() as AddressInfo).port;
  });
  afterAll(() => env?.close());

  /** Writes `count` pipelined GET /healthz in one go; the answers' status lines, and whether the server closed. */
  const pipelined = (count: number) =>
    new Promise<{ answers: number; closedByServer: boolean }>((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1' });
      let received = '';
      let done = false;
      const finish = (closedByServer: boolean) => {
        if (done) return;
        done = true;
        socket.destroy();
        resolve({ answers: received.split('HTTP/1.1 200').length - 1, closedByServer });
      };
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        if (received.split('HTTP/1.1 200').length - 1 === count) finish(false);
      });
      socket.on('error', () => undefined);
      socket.on('close', () => finish(true));
      socket.on('connect', () =>
        socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'.repeat(count)),
      );
    });

  /**
   * Writes a request whose chunked body is `body` cut into `pieces` chunks, then a GET /healthz on the same
   * connection; what came back, and whether the server closed the connection before answering the GET.
   */
  const chunked = (head: string, body: string, pieces: number) =>
    new Promise<{ received: string; closedBeforeHealthz: boolean }>((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1' });
      let received = '';
      let done = false;
      const finish = (closedBeforeHealthz: boolean) => {
        if (done) return;
        done = true;
        socket.destroy();
        resolve({ received, closedBeforeHealthz });
      };
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        if (received.includes('{"status":"ok"}')) finish(false);
      });
      socket.on('error', () => undefined);
      socket.on('close', () => finish(true));
      const size = Math.ceil(body.length / pieces);
      let encoded = '';
      for (let at = 0; at < body.length; at += size) {
        const piece = body.slice(at, at + size);
        encoded += `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`;
      }
      socket.on('connect', () =>
        socket.write(
          `${head}\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n${encoded}0\r\n\r\n` +
            'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
        ),
      );
    });

  it('closes a connection whose body comes in thousands of tiny chunks, read by a route or dropped after an early answer', async () => {
    const junk = 'x'.repeat(40_000);
    const sender = await createTenant(env.services, { domain: 'acme.example' });
    const key = `x-api-key: ${sender.apiKey}\r\nContent-Type: application/json`;
    const send = ' '.repeat(2_000) + JSON.stringify(validSend);
    // The same bodies in a few large chunks: answered, and the connection kept for the next request.
    const fine = await chunked('POST /nowhere HTTP/1.1', junk, 10);
    expect(fine.received).toMatch(/^HTTP\/1\.1 404 /);
    expect(fine.closedBeforeHealthz).toBe(false);
    const sent = await chunked(`POST /api/email/send HTTP/1.1\r\n${key}`, send, 10);
    expect(sent.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(sent.closedBeforeHealthz).toBe(false);
    // One byte a chunk: dropped after a 404 or a 401, or read by the send route: closed, the GET never
    // answered, and where an answer came before the close it is the 404, the 401 or this 400.
    for (const [head, body, first] of [
      ['POST /nowhere HTTP/1.1', junk, /^HTTP\/1\.1 404 /],
      ['POST /api/email/send HTTP/1.1\r\nContent-Type: application/json', junk, /^HTTP\/1\.1 401 /],
      [
        `POST /api/email/send HTTP/1.1\r\n${key}`,
        send,
        /^HTTP\/1\.1 400 [^]*bad_request: the body arrived in more than 1,024 pieces/,
      ],
    ] as const) {
      const cut = await chunked(head, body, body.length);
      expect(cut.closedBeforeHealthz, `${head}: ${cut.received}`).toBe(true);
      if (cut.received !== '') expect(cut.received).toMatch(first);
      // One answer at most: none written after an early answer that was complete.
      expect(cut.received.split('HTTP/1.1 ').length - 1, cut.received).toBeLessThanOrEqual(1);
    }
    // The early answer complete before the tiny chunks arrive: the connection is closed, nothing more
    // is written on it.
    const late = await new Promise<string>((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1' });
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(received));
      socket.on('connect', () => {
        socket.write('POST /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n');
        setTimeout(() => socket.write('1\r\nx\r\n'.repeat(3000)), 200);
      });
    });
    expect(late).toMatch(/^HTTP\/1\.1 404 /);
    expect(late.split('HTTP/1.1 ').length - 1, late).toBe(1);
  });

  it("answers in txmail's form what Node answered alone: no Host, an unknown Expect, CONNECT", async () => {
    const ask = async (head: string) => (await writeThenRead(port, `${head}\r\n\r\n`, 0)).received;
    const noHost = await ask('GET /healthz HTTP/1.1\r\nConnection: close');
    expect(noHost).toMatch(/^HTTP\/1\.1 400 /);
    expect(noHost).toMatch(/\r\n\r\nbad_request: an HTTP\/1\.1 request must carry a Host header/);
    // HTTP/1.0 needs none.
    expect(await ask('GET /healthz HTTP/1.0')).toMatch(/^HTTP\/1\.1 200 /);
    // An expectation txmail does not know is ignored (RFC 9110 §10.1.1), not an empty 417.
    expect(
      await ask('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 200-ok\r\nConnection: close'),
    ).toMatch(/^HTTP\/1\.1 200 [^]*\{"status":"ok"\}$/);
    const connect = await ask('CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22');
    expect(connect).toMatch(/^HTTP\/1\.1 400 [^]*bad_request: CONNECT is not served here/);
  });

  /** Writes a request head with `Expect: 100-continue`; the first answer the server writes. */
  const expectContinue = (length: number, extra = '') =>
    new Promise<string>((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1' });
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        if (received.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(received));
      socket.on('connect', () =>
        socket.write(
          `POST /api/email/send HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${length}\r\nExpect: 100-continue\r\n${extra}\r\n`,
        ),
      );
    });

  it('answers Expect: 100-continue with 413 at once for a body declared over 10 MiB, and with 100 otherwise', async () => {
    const refused = await expectContinue(20_000_000, `x-api-key: ${tenant.apiKey}\r\n`);
    expect(refused).toMatch(/^HTTP\/1\.1 413 /);
    expect(refused).toMatch(/connection: close/i);
    expect(await expectContinue(200, `x-api-key: ${tenant.apiKey}\r\n`)).toMatch(
      /^HTTP\/1\.1 100 Continue\r\n/,
    );
  });

  it(`answers requests pipelined on one connection, and closes one with more than ${MAX_PIPELINED} waiting`, async () => {
    expect(await pipelined(10)).toEqual({ answers: 10, closedByServer: false });
    const flood = await pipelined(5_000);
    expect(flood.closedByServer).toBe(true);
    expect(flood.answers).toBeLessThanOrEqual(MAX_PIPELINED);
  });

  it('hands the app none of the requests that arrive after a pipelining flood closed the connection', async () => {
    // A bare app with the same limit: a hook added before it sees every request Fastify is handed.
    const app = Fastify();
    let handed = 0;
    app.addHook('onRequest', (_request, _reply, done) => {
      handed++;
      done();
    });
    limitPipelining(app);
    app.get('/healthz', () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const closed = new Promise<void>((resolve) => {
        const socket = net.connect((app.server.address() as AddressInfo).port, '127.0.0.1');
        socket.on('data', () => undefined);
        socket.on('error', () => undefined);
        socket.on('close', () => resolve());
        // 5,000 of them (about 190 KiB): Node's first read alone holds some 1,900.
        socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(5_000)));
      });
      await closed;
      expect(handed).toBeGreaterThan(0);
      expect(handed).toBeLessThanOrEqual(MAX_PIPELINED);
    } finally {
      await app.close();
    }
  });

  it('marks every answer nosniff, a text/plain error that echoes the path included', async () => {
    // One connection each, closed after (this suite's peer may hold only a few).
    const get = (path: string) =>
      new Promise<http.IncomingMessage>((resolve, reject) =>
        http
          .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
            res.resume();
            res.on('end', () => resolve(res));
          })
          .on('error', reject),
      );
    const missing = await get('/api/%3Cscript%3Ealert(1)%3C/script%3E');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/plain/);
    expect(missing.headers['x-content-type-options']).toBe('nosniff');
    expect((await get('/healthz')).headers['x-content-type-options']).toBe('nosniff');
    // A URL Fastify cannot decode is answered before routing (frameworkErrors): marked too.
    const bad = await get('/api/%3Cscript%3E%zz');
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['x-content-type-options']).toBe('nosniff');
  });

  it('counts a request answered before routing (a URL that cannot be decoded) as answered: the connection stays open', async () => {
    // More than MAX_PIPELINED of them, one after another on one kept-alive connection.
    const socket = net.connect({ port, host: '127.0.0.1' });
    let received = '';
    socket.on('data', (c: Buffer) => (received += c.toString('latin1')));
    let closed = false;
    socket.on('close', () => (closed = true));
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    const n = MAX_PIPELINED + 6;
    for (let i = 0; i < n; i++) {
      socket.write('GET /api/%zz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await until('the answer', async () =>
        received.split('HTTP/1.1 400').length - 1 > i ? true : undefined,
      );
    }
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await until('the health answer', async () => (received.includes('HTTP/1.1 200') ? true : undefined));
    expect(closed).toBe(false);
    socket.destroy();
  });

  it('answers 408 and closes a request whose body stops coming', async () => {
    const client = new RawClient(port);
    client.write(postHead('/api/auth/login', 50) + '{"em');
    const answer = await client.closed;
    expect(answer.status).toBe(408);
    expect(answer.type).toMatch(/^text\/plain/);
    expect(answer.body).toMatch(/^request_timeout: /);
  });

  it('answers once a request refused before its body came (no key), never a 408 after it on the same connection', async () => {
    const client = new RawClient(port);
    client.write(postHead('/api/email/send', 200) + '{"fr');
    // The client sends nothing more: the server closes (lingering) rather than timing the body out.
    const answer = await client.closed;
    expect(answer.status).toBe(401);
    const received = (client as unknown as { received: string }).received; // the raw bytes: every answer
    expect(received.split('HTTP/1.1 ').length - 1, received).toBe(1);
  });

  it('answers 408 to a body that trickles in, however steadily', async () => {
    const client = new RawClient(port);
    const body = JSON.stringify({ email: 'jane@customer.example', password: 'x'.repeat(400) });
    client.write(postHead('/api/auth/login', body.length));
    let sent = 0;
    // A byte every 50 ms: the connection is never idle, and the body would take 20 s to arrive.
    const trickle = setInterval(() => client.write(body[sent++] ?? ''), 50);
    const answer = await client.closed.finally(() => clearInterval(trickle));
    expect(answer.status).toBe(408);
    expect(sent).toBeLessThan(body.length);
  });

  it(`holds at most ${PER_PEER} connections from one peer; others, and that peer's later ones, are served`, async () => {
    const held = Array.from({ length: PER_PEER }, () => new RawClient(port, '127.0.0.9'));
    await Promise.all(held.map((c) => c.connected));
    // Each held connection has started a request, so the server has surely accepted it.
    for (const c of held) c.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const refused = new RawClient(port, '127.0.0.9');
    const answer = await refused.closed;
    expect(answer.status).toBeUndefined();
    expect(answer.body).toBe('');

    // Another peer is served meanwhile.
    const other = new RawClient(port, '127.0.0.10');
    other.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect((await other.closed).status).toBe(200);

    // A slot is freed when a connection ends.
    await held[0]!.end();
    const later = new RawClient(port, '127.0.0.9');
    later.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect((await later.closed).status).toBe(200);
    await Promise.all(held.slice(1).map((c) => c.end()));
  });

  it.each([
    [
      'two Content-Lengths',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    ],
    [
      'Content-Length beside chunked',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    [
      'a bad chunk size',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    ],
    ['a NUL in a header', 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n'],
    ['a space in the path', 'GET /api/emails /x HTTP/1.1\r\nHost: x\r\n\r\n'],
  ])('answers %s with 400 bad_request in text/plain, and closes', async (_, request) => {
    const client = new RawClient(port);
    client.write(request);
    const answer = await client.closed;
    expect(answer.status).toBe(400);
    expect(answer.type).toMatch(/^text\/plain/);
    expect(answer.body).toMatch(/^bad_request: /);
  });

  it('refuses a JSON body declared in another charset than UTF-8 (it would be read as UTF-8 all the same)', async () => {
    const body = Buffer.from(JSON.stringify({ ...validSend, subject: 'caf\u00e9' }), 'latin1');
    const send = (charset: string) =>
      env.app.inject({
        method: 'POST',
        url: '/api/email/send/test',
        headers: { 'x-api-key': tenant.apiKey, 'content-type': `application/json; charset=${charset}` },
        payload: body,
      });
    const latin1 = await send('iso-8859-1');
    expect(latin1.statusCode).toBe(415);
    expect(latin1.body).toMatch(/^unsupported_media_type: /);
    expect((await send('UTF-8')).statusCode).not.toBe(415);
    expect((await send('"utf8"')).statusCode).not.toBe(415);
  });

  it('refuses two Idempotency-Key headers, which Node would join into one key', async () => {
    const body = JSON.stringify(validSend);
    const client = new RawClient(port);
    client.write(
      postHead('/api/email/send/test', body.length, [
        `x-api-key: ${tenant.apiKey}`,
        'Idempotency-Key: a1',
        'Idempotency-Key: a2',
        'Connection: close',
      ]) + body,
    );
    const answer = await client.closed;
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(/^invalid_idempotency_key: /);
  });

  it('takes at most 16 KiB on the routes anyone may call without a key, and 10 MiB behind a key', async () => {
    const post = (url: string, extra: number, key?: string) =>
      env.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
        payload: JSON.stringify({ email: 'a@b.example', password: 'x', pad: 'p'.repeat(extra) }),
      });
    for (const url of [
      '/api/auth/signup',
      '/api/auth/login',
      '/api/auth/verify',
      '/api/auth/password-reset',
      '/api/auth/password-reset/confirm',
      '/api/auth/accept-invite',
    ]) {
      const large = await post(url, 17 * 1024);
      expect(large.statusCode, url).toBe(413);
      expect(large.body).toBe('payload_too_large: the request body must be at most 16 KiB');
      // Under the limit the body is read and judged (an unknown field here).
      const small = await post(url, 15 * 1024);
      expect(small.statusCode, url).toBe(400);
      expect(small.body).toMatch(/^validation_error: /);
    }
    const send = await post('/api/email/send/test', 17 * 1024, tenant.apiKey);
    expect(send.statusCode).toBe(400);
    expect(send.body).toMatch(/^validation_error: /);
    const huge = await post('/api/email/send/test', 10 * 1024 * 1024, tenant.apiKey);
    expect(huge.statusCode).toBe(413);
    expect(huge.body).toBe('payload_too_large: the request body must be at most 10 MiB');
  });

  it('answers a body sent to no route 404, unread (anyone could otherwise have 10 MiB read and parsed)', async () => {
    for (const url of ['/api/nope', '/api/auth/nope', '/']) {
      // Broken JSON of 1 MiB: 404 if nobody parsed it, 400 invalid_json if it was read and parsed.
      const res = await env.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: `{"pad": "${'p'.repeat(1024 * 1024)}`,
      });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(404);
      expect(res.body).toMatch(/^not_found: no route POST /);
    }
  });

  it('keeps control characters a client sent out of an error body', async () => {
    const res = await env.app.inject({
      method: 'GET',
      url: '/api/emails/%1b%00x',
      headers: { 'x-api-key': tenant.apiKey },
    });
    // The NUL makes it a 400 (no-nul.ts); the escape in the id is in neither answer.
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toMatch(/\p{Cc}/u);
  });
});

describe('request bodies held in memory', () => {
  // Small budgets, so that a few bodies over the 64 KiB that are counted reach them.
  let env: TestEnv;
  let tenant: Tenant;
  let port: number;

  beforeAll(async () => {
    env = await startTestEnv(sqlite, {
      env: { TXMAIL_HTTP_BODY_MEMORY: '512K', TXMAIL_HTTP_BODY_MEMORY_PER_IP: '256K' },
    });
    tenant = await createTenant(env.services);
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    port = (env.app.server.address() as AddressInfo).port;
  });
  afterAll(() => env?.close());

  /** A test send whose body is `bytes` long. */
  const sendOf = (bytes: number) => {
    const body = JSON.stringify({ ...validSend, message: '' });
    return JSON.stringify({ ...validSend, message: 'x'.repeat(bytes - body.length) });
  };
  const headers = () => [`x-api-key: ${tenant.apiKey}`, 'Connection: close'];
  /** A test send of `bytes` from `from`, whose body stops after `sent` bytes (all of it by default). */
  const post = (from: string, bytes: number, sent = bytes) => {
    const client = new RawClient(port, from);
    const body = sendOf(bytes);
    client.write(postHead('/api/email/send/test', body.length, headers()) + body.slice(0, sent));
    return client;
  };
  /** The bytes of large bodies the listener holds now, as its gauge says. */
  const held = async () =>
    (await env.services.metrics.registry.getSingleMetric('txmail_http_body_bytes_held')!.get()).values[0]
      ?.value ?? 0;
  /** Until the listener holds at least `bytes` (it reads bodies as they come). */
  const holding = (bytes: number) =>
    until(`the listener to hold ${bytes} bytes`, async () => (await held()) >= bytes || undefined);

  /**
   * A test send of `bytes` from `from` (then `after`, pipelined) by a client that reads its answer only
   * once it has written it all (write-then-read.ts).
   */
  const writeWhole = (bytes: number, from: string, after = '') =>
    writeThenRead(
      port,
      postHead('/api/email/send/test', bytes, [`x-api-key: ${tenant.apiKey}`]),
      bytes,
      from,
      after,
    );

  it("refuses a client network's body past its share, then serves it again once its bodies are answered", async () => {
    // 150 KiB of a 200 KiB body, held: within the network's 256 KiB.
    const waiting = post('127.0.0.21', 200 * 1024, 150 * 1024);
    await holding(150 * 1024);
    // A second large body from the same network passes its share: refused, the rest dropped, closed.
    const refused = await post('127.0.0.21', 200 * 1024).closed;
    expect(refused.status).toBe(429);
    expect(refused.body).toMatch(/^server_busy: /);
    expect(refused.retryAfter).toBe('1');
    // A small send from that network is not counted, and another network's large one fits the whole.
    expect((await post('127.0.0.21', 2_000).closed).status).toBe(200);
    expect((await post('127.0.0.22', 200 * 1024).closed).status).toBe(200);
    // The held body's bytes are given back when its connection closes, however it closes.
    await waiting.end();
    expect((await post('127.0.0.21', 200 * 1024).closed).status).toBe(200);
    expect((await post('127.0.0.21', 200 * 1024).closed).status).toBe(200);
    expect(await held()).toBe(0);
  });

  it('a refused client still writing its body reads the refusal once it has written it all', async () => {
    // Many clients read the answer only after writing the request: the connection lingers, reading
    // and dropping the rest, rather than reset them (lingering-close.ts). 8 MiB: more than loopback's
    // socket buffers hold, so the client is still writing when the refusal is sent.
    const waiting = post('127.0.0.23', 200 * 1024, 150 * 1024);
    await holding(150 * 1024);
    const bytes = 8 * 1024 * 1024;
    const refused = await writeWhole(bytes, '127.0.0.23');
    expect(refused.writeError).toBeUndefined();
    expect(refused.received).toMatch(/^HTTP\/1\.1 429 /);
    expect(refused.received).toMatch(/^connection: close\r$/im);
    expect(refused.received).toContain('server_busy: ');
    // The dropped rest was never counted.
    await waiting.end();
    await until('the listener to hold nothing', async () => (await held()) === 0 || undefined);
  });

  it('a client still writing a body declared too large reads the 413 once it has written it all', async () => {
    const bytes = 11 * 1024 * 1024;
    const refused = await writeWhole(bytes, '127.0.0.24');
    expect(refused.writeError).toBeUndefined();
    expect(refused.received).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('carries out no request pipelined behind a refused body: its client never hears of it', async () => {
    const subject = `pipelined behind a refusal ${Date.now()}`;
    const second = JSON.stringify({ ...validSend, subject });
    const pipelined =
      postHead('/api/email/send/test', Buffer.byteLength(second), [`x-api-key: ${tenant.apiKey}`]) + second;
    const bytes = 11 * 1024 * 1024;
    const refused = await writeWhole(bytes, '127.0.0.25', pipelined);
    expect(refused.writeError).toBeUndefined();
    expect(refused.received).toMatch(/^HTTP\/1\.1 413 /);
    expect(refused.received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    const log = await env.app.inject({
      method: 'GET',
      url: `/api/emails?q=${encodeURIComponent(subject)}`,
      headers: { 'x-api-key': tenant.apiKey },
    });
    expect(log.statusCode).toBe(200);
    expect((log.json() as { data: unknown[] }).data).toHaveLength(0);
  });

  it('refuses a large body past the whole budget, whichever network sends it', async () => {
    const waiting = ['127.0.0.31', '127.0.0.32', '127.0.0.33'].map((from) =>
      post(from, 200 * 1024, 160 * 1024),
    );
    await holding(3 * 160 * 1024);
    // 480 KiB held of 512: a fourth network's large body does not fit, its small one does.
    const refused = await post('127.0.0.34', 200 * 1024).closed;
    expect(refused.status).toBe(429);
    expect(refused.body).toMatch(/^server_busy: /);
    expect((await post('127.0.0.34', 2_000).closed).status).toBe(200);
    // The held bodies' clients hang up; their bytes are given back.
    await Promise.all(waiting.map((c) => c.end()));
    expect((await post('127.0.0.34', 200 * 1024).closed).status).toBe(200);
    expect(await held()).toBe(0);
  });
});

describe('request bodies held in memory: the paths where Fastify does not read the body to its end', () => {
  let env: TestEnv;
  let port: number;
  let key: string;
  beforeAll(async () => {
    env = await startTestEnv(sqlite, {
      env: { TXMAIL_HTTP_BODY_MEMORY: '64M', TXMAIL_HTTP_BODY_MEMORY_PER_IP: '11M' },
    });
    key = (await createTenant(env.services)).apiKey;
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    port = (env.app.server.address() as AddressInfo).port;
  });
  afterAll(() => env?.close());

  const held = async () =>
    (await env.services.metrics.registry.getSingleMetric('txmail_http_body_bytes_held')!.get()).values[0]
      ?.value ?? 0;
  const connect = (from: string) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
    socket.on('error', () => undefined);
    let data = '';
    socket.on('data', (d: Buffer) => (data += d.toString('latin1')));
    const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(data)));
    return { socket, closed, data: () => data };
  };
  /** Until `ok` holds, for at most 3 s (the expectations after each say what did not happen). */
  const soon = async (ok: () => boolean | Promise<boolean>) => {
    for (let i = 0; i < 300 && !(await ok()); i++) await new Promise((r) => setTimeout(r, 10));
  };

  it('a GET, and a body no route reads, from a network at its share, are answered (the process does not crash)', async () => {
    // The network's 11 MiB share, to within 100 bytes, in two unfinished bodies.
    const each = (11 * 1024 * 1024) / 2 - 50;
    const holders = [connect('127.0.0.41'), connect('127.0.0.41')];
    for (const h of holders)
      h.socket.write(
        `POST /api/email/send/test HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 6000000\r\n\r\n` +
          ' '.repeat(each),
      );
    await soon(async () => (await held()) >= 2 * each);
    expect(await held()).toBe(2 * each);
    const get = connect('127.0.0.41');
    get.socket.write(
      `GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n${' '.repeat(100000)}`,
    );
    await soon(() => get.data().includes('\r\n\r\n'));
    expect(get.data()).toMatch(/^HTTP\/1\.1 200/);
    get.socket.destroy();
    // A body no route reads (415: not JSON) past the share: answered, and the process still serves.
    const plain = connect('127.0.0.41');
    plain.socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n${' '.repeat(100000)}`,
    );
    await soon(() => plain.data().includes('\r\n\r\n'));
    expect(plain.data()).toMatch(/^HTTP\/1\.1 415/);
    plain.socket.destroy();
    expect((await env.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    for (const h of holders) h.socket.destroy();
    await soon(async () => (await held()) === 0);
    expect(await held()).toBe(0);
  });

  it('gives back what arrives after a chunked body is refused as too large (413)', async () => {
    const c = connect('127.0.0.42');
    c.socket.write(
      `POST /api/email/send/test HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    for (let sent = 0; sent < 12 * 1024 * 1024 && !c.socket.destroyed; sent += chunk.length) {
      const ok = c.socket.write(`${chunk.length.toString(16)}\r\n`);
      c.socket.write(chunk);
      c.socket.write('\r\n');
      if (!ok) await new Promise((r) => (c.socket.once('drain', r), c.socket.once('close', r)));
    }
    expect(await c.closed).toMatch(/^HTTP\/1\.1 413/);
    await soon(async () => (await held()) === 0);
    expect(await held()).toBe(0);
  });

  it('a 415 for a large body leaves the kept-alive connection usable', async () => {
    const c = connect('127.0.0.43');
    const body = ' '.repeat(2 * 1024 * 1024);
    c.socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await soon(() => c.data().includes('\r\n\r\n'));
    c.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await soon(() => (c.data().match(/HTTP\/1\.1 /g) ?? []).length >= 2);
    expect(c.data().match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 415', 'HTTP/1.1 200']);
    c.socket.destroy();
  });
});
