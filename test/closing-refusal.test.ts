// A closing listener answers what still reaches it on a kept-alive connection in txmail's error form
// (503 shutting_down, text/plain), not Fastify's JSON 503; a request it had already begun completes.
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { until } from './helpers/wait.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

let env: TestEnv;
let tenant: Tenant;
let closed: Promise<void> | undefined;

beforeAll(async () => {
  env = await startTestEnv(databaseKinds[0]!);
  tenant = await createTenant(env.services, { domain: 'acme.example' });
});
afterAll(async () => {
  await closed;
  await env.close();
});

/** Whether a new connection to `port` is refused (true), else undefined (it was taken, and ended). */
function refused(port: number): Promise<true | undefined> {
  return new Promise((resolve) => {
    const probe = connect(port, '127.0.0.1');
    probe.once('connect', () => (probe.destroy(), resolve(undefined)));
    probe.once('error', () => resolve(true));
  });
}

/** Everything the server writes on `socket` until it closes it. */
function readAll(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

it('answers a request reaching it while it closes with 503 shutting_down, after the one it had begun', async () => {
  await env.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = env.app.server.address() as { port: number };
  const body = JSON.stringify(validSend);
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const answers = readAll(socket);
  // The first request's head, then a pause with its body unsent: the connection is busy, not idle.
  const begun = once(env.app.server, 'request');
  socket.write(
    `POST /api/email/send HTTP/1.1\r\nHost: x\r\nx-api-key: ${tenant.apiKey}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`,
  );
  await begun;
  closed = env.app.close();
  // Closing has begun (the preClose hooks ran) once the listener refuses new connections.
  await until('the listener closed', () => refused(port));
  // The rest of the first request, and a second one pipelined behind it.
  socket.write(`${body}GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
  const text = await answers;

  const [first, second] = text.split(/(?=HTTP\/1\.1 )/);
  expect(first).toMatch(/^HTTP\/1\.1 200 /);
  const id = (JSON.parse(first!.slice(first!.indexOf('\r\n\r\n') + 4)) as { id: string }).id;
  expect((await env.message(tenant.accountId, id))?.status).toBe('queued');

  expect(second).toMatch(/^HTTP\/1\.1 503 /);
  expect(second).toMatch(/\r\ncontent-type: text\/plain; charset=utf-8\r\n/i);
  expect(second).toMatch(/\r\nconnection: close\r\n/i);
  expect(second!.slice(second!.indexOf('\r\n\r\n') + 4)).toMatch(
    /^shutting_down: this server is shutting down/,
  );
});
