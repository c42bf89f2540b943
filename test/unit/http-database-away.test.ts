// A database that is away for a moment (db/unavailable.ts) answers any route 503 with Retry-After, not
// 500: the client's request was fine and is worth sending again (http/errors.ts).
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
