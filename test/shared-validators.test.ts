// Request validators shared by the apps of one process (src/http/validators.ts): the same schema text
// is compiled once, and each app still validates with it.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { sharedValidators } from '../src/http/validators.js';

const appWith = (body: object) => {
  const app = Fastify({ schemaController: { compilersFactory: { buildValidator: sharedValidators } } });
  app.post('/', { schema: { body } }, async () => ({ ok: true }));
  return app;
};

describe('validators shared across apps', () => {
  it('validates in every app that shares them, each schema by its own validator', async () => {
    const schema = () => ({
      type: 'object',
      required: ['to'],
      properties: { to: { type: 'string', maxLength: 5 } },
    });
    const apps = [appWith(schema()), appWith(schema()), appWith({ ...schema(), required: [] })];
    for (const app of apps) await app.ready();
    try {
      for (const app of apps.slice(0, 2)) {
        const bad = await app.inject({ method: 'POST', url: '/', payload: { to: 'too long' } });
        expect(bad.statusCode).toBe(400);
        const good = await app.inject({ method: 'POST', url: '/', payload: { to: 'jane' } });
        expect(good.statusCode).toBe(200);
      }
      // The third schema differs (nothing required): its own validator.
      expect((await apps[2]!.inject({ method: 'POST', url: '/', payload: {} })).statusCode).toBe(200);
      expect((await apps[0]!.inject({ method: 'POST', url: '/', payload: {} })).statusCode).toBe(400);
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
  });

  it('hands the same validator to two apps with the same schema', () => {
    // Fastify calls the compiler with the route's schema and where it applies (validators.ts).
    const build = sharedValidators({}, { customOptions: {} });
    const route = (schema: object) => ({ schema, method: 'POST', url: '/', httpPart: 'body' });
    const a = build(route({ type: 'object', properties: { n: { type: 'integer' } } }));
    const b = build(route({ type: 'object', properties: { n: { type: 'integer' } } }));
    const c = build(route({ type: 'object', properties: { n: { type: 'string' } } }));
    expect(a).toBe(b);
    expect(c).not.toBe(a);
  });

  it('refuses Ajv plugins, which the shared pool could not tell apart', () => {
    expect(() => sharedValidators({}, { customOptions: {}, plugins: [(ajv) => ajv] })).toThrow(
      /plugins and onCreate are not supported/,
    );
  });

  it('refuses a headers schema, whose keys Fastify would not lower-case for it', async () => {
    const app = Fastify({ schemaController: { compilersFactory: { buildValidator: sharedValidators } } });
    app.get(
      '/',
      { schema: { headers: { type: 'object', properties: { 'X-Key': { type: 'string' } } } } },
      async () => 'ok',
    );
    await expect(app.ready()).rejects.toThrow(/a headers schema is not supported/);
    await app.close().catch(() => {});
  });
});
