// Large JSON bodies are decoded and parsed off the event loop, refused for the same reasons as small
// ones, and answered the same way.
import net from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import Fastify from 'fastify';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerJsonBody } from '../src/http/json-body.js';
import { ClientGone, JsonParserThread } from '../src/http/json-thread.js';
import { handleError } from '../src/http/errors.js';
import { databaseKinds } from './helpers/databases.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

const MiB = 1 << 20;

/** A JSON body of about `bytes` whose message is made of characters JSON must unescape or decode. */
function heavyBody(bytes: number): Buffer {
  const unit = 'é"\\<\u2028'; // 10 bytes of JSON each
  const message = `<p>${unit.repeat(Math.floor((bytes - 200) / 10))}</p>`;
  return Buffer.from(JSON.stringify({ ...validSend, message }));
}

/** An echo app with txmail's body parser, offloading above `offloadAbove` bytes. */
async function echoApp(offloadAbove: number, piped = false) {
  const app = Fastify({ bodyLimit: 12 * MiB });
  // A stream between the request and the parser, which (as pipe does) passes on no error of the request.
  if (piped) app.addHook('preParsing', async (_request, _reply, payload) => payload.pipe(new PassThrough()));
  const thread = registerJsonBody(app, offloadAbove);
  app.decorate('parserThread', thread);
  app.setErrorHandler(handleError);
  app.post('/echo', async (request) => ({ length: JSON.stringify(request.body).length }));
  // Answers without touching the body: the event loop's pause is then the parser's alone, not also the
  // handler's (serialising 8 MiB of escapes again: the offloaded side paused 47.5 ms with the echo
  // route, 35.7 ms with this one, one run each).
  app.post('/received', async (request) => ({ object: typeof request.body === 'object' }));
  app.post('/depth', async (request) => {
    let depth = 0;
    for (let v = request.body; Array.isArray(v); v = v[0] as unknown) depth++;
    return { depth };
  });
  await app.ready();
  return app;
}

describe('JSON bodies', () => {
  it('parses a large body on the thread to the same value as a small one on the loop', async () => {
    const [onLoop, offloaded] = [await echoApp(Infinity), await echoApp(0)];
    const body = heavyBody(2 * MiB);
    const headers = { 'content-type': 'application/json' };
    const a = await onLoop.inject({ method: 'POST', url: '/echo', headers, payload: body });
    const b = await offloaded.inject({ method: 'POST', url: '/echo', headers, payload: body });
    expect(b.statusCode).toBe(200);
    expect(b.body).toBe(a.body);
    await Promise.all([onLoop.close(), offloaded.close()]);
  });

  it.each([
    ['malformed JSON', Buffer.from(`{"a": "${'x'.repeat(100_000)}`)],
    ['an own __proto__ key', Buffer.from(`{"a": "${'x'.repeat(100_000)}", "__proto__": {"admin": true}}`)],
    ['an escaped __proto__ key', Buffer.from(`{"a": "${'x'.repeat(100_000)}", "\\u005f_proto__": {"x": 1}}`)],
    [
      'a __proto__ key after a byte-order mark',
      Buffer.from(`\uFEFF{"a": "${'x'.repeat(100_000)}", "__proto__": {"admin": true}}`),
    ],
    [
      'a nested constructor.prototype',
      Buffer.from(`{"a": [{"constructor": {"prototype": {"x": 1}}}], "b": "${'x'.repeat(100_000)}"}`),
    ],
  ])('refuses %s in a large body with 400 invalid_json, as on the loop', async (name, payload) => {
    const [onLoop, offloaded] = [await echoApp(Infinity), await echoApp(0)];
    const headers = { 'content-type': 'application/json' };
    const a = await onLoop.inject({ method: 'POST', url: '/echo', headers, payload });
    const b = await offloaded.inject({ method: 'POST', url: '/echo', headers, payload });
    expect(a.statusCode).toBe(400);
    expect(b.statusCode).toBe(400);
    // In words that name what is refused, the same on both (Fastify's own said "Body is not valid JSON
    // but content-type is set to 'application/json'" of valid JSON).
    expect(b.body).toBe(
      name === 'malformed JSON'
        ? 'invalid_json: the body is not valid JSON (Unterminated string in JSON at position 100007)'
        : 'invalid_json: the body is not valid JSON (it has a "__proto__" key, or a "constructor" key holding "prototype", which txmail refuses)',
    );
    expect(a.body).toBe(b.body);
    await Promise.all([onLoop.close(), offloaded.close()]);
  });

  it('says where malformed JSON in a small body goes wrong', async () => {
    const app = await echoApp(Infinity);
    const res = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"to": "jane@example.org",}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/^invalid_json: the body is not valid JSON \(.*position 26/);
    await app.close();
  });

  it('refuses bytes that are not UTF-8 with 400 invalid_json, on the loop and on the thread, rather than replacing them', async () => {
    const [onLoop, offloaded] = [await echoApp(Infinity), await echoApp(0)];
    const headers = { 'content-type': 'application/json' };
    // 0xFF is never UTF-8; as U+FFFD each would have become three bytes.
    const payload = Buffer.concat([
      Buffer.from('{"message": "<p>'),
      Buffer.alloc(100_000, 0xff),
      Buffer.from('</p>"}'),
    ]);
    for (const app of [onLoop, offloaded]) {
      const res = await app.inject({ method: 'POST', url: '/echo', headers, payload });
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatch(/^invalid_json: .*not valid UTF-8/);
    }
    // Valid UTF-8 of every length still parses on both.
    const fine = Buffer.from(JSON.stringify({ message: 'é中😀'.repeat(10_000) }));
    for (const app of [onLoop, offloaded])
      expect((await app.inject({ method: 'POST', url: '/echo', headers, payload: fine })).statusCode).toBe(
        200,
      );
    await Promise.all([onLoop.close(), offloaded.close()]);
  });

  it('refuses a large body nested deeper than 512 levels (it could not be copied back) with 400 invalid_json', async () => {
    const app = await echoApp(0);
    const headers = { 'content-type': 'application/json' };
    const deep = (levels: number) => Buffer.from(`${'['.repeat(levels)}${']'.repeat(levels)}`);
    const tooDeep = await app.inject({ method: 'POST', url: '/depth', headers, payload: deep(16_000) });
    expect(tooDeep.statusCode).toBe(400);
    expect(tooDeep.body).toBe(
      'invalid_json: the body is not valid JSON (the JSON is nested more than 512 levels deep)',
    );
    const deepEnough = await app.inject({ method: 'POST', url: '/depth', headers, payload: deep(511) });
    expect(deepEnough.json()).toEqual({ depth: 511 });
    await app.close();
  });

  it('refuses a large body of more than 10,000 values (copying them back would hold the loop) with 400 invalid_json', async () => {
    const app = await echoApp(0);
    const headers = { 'content-type': 'application/json' };
    const many = await app.inject({
      method: 'POST',
      url: '/received',
      headers,
      payload: Buffer.from(`[${Array.from({ length: 10_001 }, () => '{}').join(',')}]`),
    });
    expect(many.statusCode).toBe(400);
    expect(many.body).toMatch(/^invalid_json: .*more than 10000 values/);
    // A message's worth of values, however long its strings, crosses.
    const fields = await app.inject({
      method: 'POST',
      url: '/received',
      headers,
      payload: Buffer.from(
        JSON.stringify({ ...validSend, tags: Array.from({ length: 500 }, (_, i) => `t${i}`) }),
      ),
    });
    expect(fields.statusCode, fields.body).toBe(200);
    await app.close();
  });

  it('parses concurrent large bodies of clients still connected (real sockets)', async () => {
    const app = await echoApp(0);
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const body = JSON.stringify({ ...validSend, message: 'x'.repeat(600_000) });
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          fetch(`${address}/received`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          }).then(async (r) => [r.status, await r.text()] as const),
        ),
      );
      for (const [status, text] of answers) expect(status, text).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('parses a chunked body that grows past the bound on the thread, the same as on the loop', async () => {
    const [onLoop, offloaded] = [await echoApp(Infinity), await echoApp(64 * 1024)];
    const payload = heavyBody(300 * 1024);
    const answers = [];
    const posted = vi.spyOn(Worker.prototype, 'postMessage');
    const postsBy = new Map<unknown, number>();
    for (const app of [onLoop, offloaded]) {
      posted.mockClear();
      const address = await app.listen({ host: '127.0.0.1', port: 0 });
      // Pieces of 10,000 bytes, cut through UTF-8 sequences, with no Content-Length.
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < payload.length; at += 10_000)
            controller.enqueue(payload.subarray(at, at + 10_000));
          controller.close();
        },
      });
      const r = await fetch(`${address}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      answers.push([r.status, await r.text()]);
      postsBy.set(app, posted.mock.calls.length);
    }
    posted.mockRestore();
    // The thread was used for the one, not for the other.
    expect(postsBy.get(onLoop)).toBe(0);
    expect(postsBy.get(offloaded)).toBeGreaterThan(1);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]![0]).toBe(200);
    expect(answers[0]![1]).toBe(
      JSON.stringify({ length: JSON.stringify(JSON.parse(payload.toString())).length }),
    );
    await Promise.all([onLoop.close(), offloaded.close()]);
  });

  it.each([
    ['as Node reads it', false],
    ['through a preParsing stream (as the body memory counts it)', true],
  ])('forgets the pieces of a large body whose client hangs up in the middle of it, %s', async (_, piped) => {
    const app = await echoApp(64 * 1024, piped);
    const thread = (app as unknown as { parserThread: JsonParserThread }).parserThread;
    const address = new URL(await app.listen({ host: '127.0.0.1', port: 0 }));
    try {
      const socket = net.connect(Number(address.port), address.hostname);
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        'POST /received HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 400000\r\n\r\n',
      );
      socket.write(`{"message": "${'x'.repeat(150_000)}`);
      // The pieces reach the thread as they come.
      await expect.poll(() => thread.bodiesHeld, { timeout: 5000 }).toBe(1);
      socket.destroy();
      await expect.poll(() => thread.bodiesHeld, { timeout: 5000 }).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('sends a body of 1-byte chunks to the thread in a few blocks, not a message a byte', async () => {
    const app = await echoApp(64 * 1024);
    const address = new URL(await app.listen({ host: '127.0.0.1', port: 0 }));
    const posted = vi.spyOn(Worker.prototype, 'postMessage');
    try {
      const json = `{"a":"${'x'.repeat(200 * 1024 - 8)}"}`;
      const parts = [
        'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n',
      ];
      for (const ch of json) parts.push(`1\r\n${ch}\r\n`);
      parts.push('0\r\n\r\n');
      const answer = await new Promise<string>((resolve) => {
        const socket = net.connect(Number(address.port), address.hostname);
        let got = '';
        socket.on('data', (d: Buffer) => (got += d.toString()));
        socket.on('close', () => resolve(got));
        socket.on('error', () => undefined);
        socket.write(parts.join(''));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      // 200 KiB is four blocks of 64 KiB and a parse; a message a chunk would be some 200,000.
      expect(posted.mock.calls.length).toBeGreaterThan(0);
      expect(posted.mock.calls.length).toBeLessThan(20);
    } finally {
      posted.mockRestore();
      await app.close();
    }
  });

  it('answers 503 (send again) for a body whose thread stops while it arrives, and parses the next on a new one', async () => {
    const app = await echoApp(64 * 1024);
    const thread = (app as unknown as { parserThread: JsonParserThread }).parserThread;
    const address = new URL(await app.listen({ host: '127.0.0.1', port: 0 }));
    try {
      const body = `{"a":"${'x'.repeat(300_000)}"}`;
      const socket = net.connect(Number(address.port), address.hostname);
      let got = '';
      socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
      const closed = new Promise((r) => socket.on('close', r));
      socket.write(
        `POST /received HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      );
      socket.write(body.slice(0, 200_000));
      await expect.poll(() => thread.bodiesHeld, { timeout: 5000 }).toBe(1);
      await (thread as unknown as { worker: Worker }).worker.terminate();
      socket.write(body.slice(200_000));
      await closed;
      expect(got).toMatch(/^HTTP\/1\.1 503/);
      expect(got).toMatch(/\r\nretry-after: 1\r\n/i);
      expect(got).toMatch(/\r\n\r\nservice_unavailable: /);
      const next = await fetch(`${address.origin}/received`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(next.status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('settles the body being parsed when the thread is closed', async () => {
    const thread = new JsonParserThread();
    const big = Buffer.from(JSON.stringify({ a: 'x'.repeat(8 * 1024 * 1024) }));
    const parsing = thread.parse(big).then(
      () => 'resolved',
      () => 'rejected',
    );
    // Closed while the thread has the body (or has just parsed it): either way it is settled.
    await expect.poll(() => thread.bodiesHeld === 0, { timeout: 5000 }).toBe(true);
    await thread.close();
    expect(await Promise.race([parsing, new Promise((r) => setTimeout(() => r('pending'), 2000))])).not.toBe(
      'pending',
    );
  });

  it('drops, unparsed, a body whose client has gone by its turn', async () => {
    const thread = new JsonParserThread();
    try {
      const body = () => Buffer.from(JSON.stringify({ ...validSend, message: 'x'.repeat(100_000) }));
      // Queued behind a body being parsed: at its turn the client has gone.
      const first = thread.parse(body());
      const dropped = thread.parse(body(), () => true);
      const kept = thread.parse(body(), () => false);
      await expect(dropped).rejects.toBeInstanceOf(ClientGone);
      await expect(first).resolves.toMatchObject({ subject: validSend.subject });
      await expect(kept).resolves.toMatchObject({ subject: validSend.subject });
    } finally {
      await thread.close();
    }
  });

  it('holds the event loop far less than parsing on the loop does (8 MiB bodies, same run)', async () => {
    // The baseline: the same bodies parsed on the loop, in this run.
    const blocked = async (offloadAbove: number) => {
      const app = await echoApp(offloadAbove);
      const body = heavyBody(8 * MiB);
      const headers = { 'content-type': 'application/json' };
      await app.inject({ method: 'POST', url: '/received', headers, payload: body }); // warm-up
      const delay = monitorEventLoopDelay({ resolution: 1 });
      delay.enable();
      for (let i = 0; i < 4; i++) {
        const res = await app.inject({ method: 'POST', url: '/received', headers, payload: body });
        expect(res.json()).toEqual({ object: true });
      }
      delay.disable();
      await app.close();
      return delay.max / 1e6;
    };
    // Each side's least of three runs: the longest pause of one run is a single sample, which another
    // process on a busy machine can stretch (seen failing once under the full suite).
    const least = async (offloadAbove: number) =>
      Math.min(await blocked(offloadAbove), await blocked(offloadAbove), await blocked(offloadAbove));
    let onLoopMs = await least(Infinity);
    let offloadedMs = await least(64 * 1024);
    if (offloadedMs >= onLoopMs / 2) {
      // The machine's load moves during a run (other test files beside this one: failed once more at
      // 84 against 107 ms under the full suite): judge again beside a baseline measured just now. A
      // loop the parse really holds is held again.
      onLoopMs = await least(Infinity);
      offloadedMs = await least(64 * 1024);
    }
    expect(offloadedMs).toBeLessThan(onLoopMs / 2);
  });
});

describe.each(databaseKinds)('a large send on $name', (kind) => {
  let env: TestEnv;
  let tenant: Tenant;
  beforeAll(async () => {
    env = await startTestEnv(kind);
    tenant = await createTenant(env.services, { domain: 'acme.example' });
  });
  afterAll(() => env.close());

  it('accepts a 9 MiB message parsed on the thread and stores it whole', async () => {
    const payload = heavyBody(9 * MiB);
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/email/send',
      headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(200);
    const { id } = res.json<{ id: string }>();
    const row = (await env.message(tenant.accountId, id))!;
    expect(row.html).toBe((JSON.parse(payload.toString()) as { message: string }).message);
  });
});

describe('routes that take no body', () => {
  let env: TestEnv;
  let tenant: Tenant;
  beforeAll(async () => {
    env = await startTestEnv(databaseKinds[0]!);
    tenant = await createTenant(env.services, { plan: 'scale', domain: 'acme.example' });
  });
  afterAll(() => env.close());

  // Many HTTP clients send `Content-Type: application/json` on every request: every route that takes no
  // body takes an empty one as none, whether the client says `Content-Length: 0` or sends no length.
  it('take an empty JSON body as no body, every one of them (from the OpenAPI document)', async () => {
    const doc = (await env.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { requestBody?: unknown }>>;
    }>();
    const bodiless: [string, string][] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        if (['post', 'put', 'patch', 'delete'].includes(method) && op.requestBody === undefined) {
          bodiless.push([method.toUpperCase(), path.replace(/\{[^}]+\}/g, 'no-such-id')]);
        }
      }
    }
    // The routes the walk found refusing an empty body, among others.
    const found = [
      'DELETE /api/suppressions/no-such-id',
      'DELETE /api/webhooks/no-such-id',
      'POST /api/webhooks/no-such-id/rotate-secret',
      'POST /api/emails/no-such-id/resend',
      'POST /api/domains/no-such-id/verify',
    ];
    expect(bodiless.map(([m, p]) => `${m} ${p}`)).toEqual(expect.arrayContaining(found));
    const reached = new Set<string>();
    for (const [method, url] of bodiless) {
      for (const length of [{ 'content-length': '0' }, {}]) {
        const res = await env.app.inject({
          method: method as 'POST',
          url,
          headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json', ...length },
        });
        expect(res.body, `${method} ${url}`).not.toMatch(/^invalid_json/);
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(500);
        // The key's routes get past the body to their checks (no such id, an id of the wrong form); a
        // route a key may not use is refused before its body is read, and proves nothing here.
        if (res.statusCode !== 403) reached.add(`${method} ${url}`);
      }
    }
    expect([...reached]).toEqual(expect.arrayContaining(found));
    // A route that takes a body still says an empty one is not what it wants.
    const send = await env.app.inject({
      method: 'POST',
      url: '/api/email/send',
      headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json', 'content-length': '0' },
    });
    expect(send.body).toBe('invalid_json: the body is empty; send a JSON object');
  });
});
