// The dashboard's static files: SPA fallback, caching by kind, security headers, /api/ stays an API.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { handleError } from '../src/http/errors.js';
import { DASHBOARD_CSP, defaultWebRoot, loadWebAssets, registerWebAssets } from '../src/http/web-assets.js';
import { databaseKinds } from './helpers/databases.js';
import { startTestEnv } from './helpers/services.js';

function appWith(root: string | undefined) {
  const app = Fastify();
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request) => {
    throw new AppError('not_found', `no route ${request.method} ${request.url}`);
  });
  registerWebAssets(app, loadWebAssets(root));
  return app;
}

describe('dashboard assets', () => {
  const root = mkdtempSync(join(tmpdir(), 'txmail-web-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>txmail</title>');
  writeFileSync(join(root, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(root, 'favicon.svg'), '<svg/>');
  const app = appWith(root);

  it('answers index.html, not cached, with a strict CSP, for every client route', async () => {
    for (const url of ['/', '/logs', '/logs/0193-abc?status=bounced', '/verify-email?token=x']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('<title>txmail</title>');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-security-policy']).toBe(DASHBOARD_CSP);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('caches hashed assets for a year with their type', async () => {
    const res = await app.inject({ url: '/assets/index-abc123.js' });
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect((await app.inject({ url: '/favicon.svg' })).headers['content-type']).toBe('image/svg+xml');
  });

  it('never serves outside its folder, and keeps /api/ answers in the API format', async () => {
    for (const url of [
      '/../package.json',
      '/assets/../../package.json',
      '/%2e%2e/package.json',
      '/missing.js',
    ]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toMatch(/^not_found: /);
    }
    const api = await app.inject({ url: '/api/nothing' });
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('answers a malformed URL under /api/ with 400 bad_request, and a dashboard page with its 404 page', async () => {
    // The dashboard is built before the tests run (npm test's checks); the page must be there to answer.
    expect(defaultWebRoot()).toBeDefined();
    const env = await startTestEnv(databaseKinds[0]!);
    try {
      for (const url of ['/api/emails/%E0%A4%A', '/api/%']) {
        const res = await env.app.inject({ url });
        expect(res.statusCode, url).toBe(400);
        expect(res.body).toMatch(/^bad_request: /);
      }
      const posted = await env.app.inject({ method: 'POST', url: '/emails/%E0%A4%A' });
      expect(posted.statusCode).toBe(400);
      expect(posted.body).toMatch(/^bad_request: /);
      // A long one is quoted to 200 characters, as a path that matches no route is.
      const long = await env.app.inject({ url: `/api/${'a'.repeat(12_000)}%` });
      expect(long.body).toBe(`bad_request: '/api/${'a'.repeat(195)}…' is not a valid url component`);
      // A link mangled on its way (a mail client cutting an escape in two) lands in the dashboard, which
      // says "No such page" in its frame.
      // A NUL in a page's path or query is no API field: the dashboard answers.
      for (const url of ['/logs/%00', '/logs?q=%00', '/login?x=%00']) {
        const res = await env.app.inject({ url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
      }
      // The API's fields still refuse it (the login's body, before any look-up).
      const api = await env.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'a\u0000@b.example', password: 'x'.repeat(12) },
      });
      expect(api.statusCode).toBe(400);
      expect(api.body).toMatch(/^validation_error: .*NUL/);
      for (const url of ['/emails/%E0%A4%A', '/%', '/domains/a%ZZb?x=1']) {
        const res = await env.app.inject({ url });
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect(res.headers['content-security-policy']).toBe(DASHBOARD_CSP);
        expect(res.body).toMatch(/^<!doctype html>/i);
      }
    } finally {
      await env.close();
    }
  });

  it('says how to build the dashboard when it is missing', async () => {
    const res = await appWith(undefined).inject({ url: '/' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toMatch(/^not_found: the dashboard is not built/);
  });
});
