// A database that is away for a moment (db/unavailable.ts) answers any route 503 with Retry-After, not
// 500: the client's request was fine and is worth sending again (http/errors.ts).
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { handleError } from '../../src/http/errors.js';

const failingWith = (err: Error) => {
  const app = Fastify({ logger: false });
  app.setErrorHandler(handleError);
  app.get('/api/emails', async () => {
    throw err;
  });
  return app;
};

describe('a route whose database is away', () => {
  it.each([
    ['SQLite busy', Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })],
    ['PostgreSQL restarting', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    ['PostgreSQL unreachable', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['pg lost its connection', new Error('Connection terminated unexpectedly')],
  ])('answers 503 service_unavailable with Retry-After: %s', async (_name, err) => {
    const res = await failingWith(err).inject({ method: 'GET', url: '/api/emails' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatch(/^service_unavailable: /);
  });

  it('answers a bug 500 internal_error, without Retry-After', async () => {
    const res = await failingWith(new TypeError('x is undefined')).inject({
      method: 'GET',
      url: '/api/emails',
    });
    expect(res.statusCode).toBe(500);
    expect(res.headers['retry-after']).toBeUndefined();
    expect(res.body).toMatch(/^internal_error: /);
  });
});

describe('a client that goes away in the middle of its body', () => {
  it('is a client error, not the database away: its socket error is the request stream, not a database', async () => {
    const app = Fastify({ logger: false });
    app.setErrorHandler(handleError);
    app.post('/api/auth/login', async () => ({ ok: true }));
    const held = new Promise<void>((resolve) => app.addHook('onRequest', async () => resolve()));
    const statuses: number[] = [];
    const answered = new Promise<void>((resolve) =>
      // onSend: an answer to a client that is gone is still made, though it is never written.
      app.addHook('onSend', async (_req, reply) => {
        statuses.push(reply.statusCode);
        resolve();
      }),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"em',
    );
    // Once the server holds the request (it waits for the rest of the body), the client resets.
    await held;
    socket.resetAndDestroy();
    await answered;
    await app.close();
    expect(statuses).toEqual([400]);
  });
});
