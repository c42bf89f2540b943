// Who may read GET /metrics (src/http/metrics-access.ts): the decision, and the route that applies it.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { handleError } from '../../src/http/errors.js';
import { metricsAccess } from '../../src/http/metrics-access.js';
import { registerMetricsRoute } from '../../src/http/routes/operations.js';
import type { Metrics } from '../../src/metrics.js';

const TOKEN = 'a-scrape-token-0123456789';

describe('metricsAccess', () => {
  const hostOnly = metricsAccess(undefined);
  const withToken = metricsAccess(TOKEN);
  const from = (peer: string, client = peer, authorization?: string, forwarded = false) => ({
    peer,
    client,
    forwarded,
    authorization,
  });

  it('lets in this host only when no token is set', () => {
    expect(hostOnly(from('127.0.0.1')).allowed).toBe(true);
    expect(hostOnly(from('::1')).allowed).toBe(true);
    expect(hostOnly(from('::ffff:127.0.0.1')).allowed).toBe(true);
    expect(hostOnly(from('198.51.100.9')).allowed).toBe(false);
    expect(hostOnly(from('10.0.0.5')).allowed).toBe(false);
    // A proxy on this host passing an outsider's request on (TXMAIL_TRUST_PROXY names the client).
    expect(hostOnly(from('127.0.0.1', '198.51.100.9')).allowed).toBe(false);
    // The same proxy where TXMAIL_TRUST_PROXY is left false: the client is the proxy's 127.0.0.1, but
    // its header gives it away.
    expect(hostOnly(from('127.0.0.1', '127.0.0.1', undefined, true)).allowed).toBe(false);
    // An outsider writing 127.0.0.1 into X-Forwarded-For where every proxy is trusted.
    expect(hostOnly(from('198.51.100.9', '127.0.0.1')).allowed).toBe(false);
    // A token sent where none is set does not open it to other hosts.
    expect(hostOnly(from('198.51.100.9', '198.51.100.9', `Bearer ${TOKEN}`)).allowed).toBe(false);
  });

  it('asks every request for the token once one is set, this host too', () => {
    expect(withToken(from('198.51.100.9', '198.51.100.9', `Bearer ${TOKEN}`)).allowed).toBe(true);
    expect(withToken(from('127.0.0.1', '127.0.0.1', `Bearer ${TOKEN}`)).allowed).toBe(true);
    expect(withToken(from('127.0.0.1')).allowed).toBe(false);
    expect(withToken(from('198.51.100.9', '198.51.100.9', `Bearer ${TOKEN}x`)).allowed).toBe(false);
    expect(withToken(from('198.51.100.9', '198.51.100.9', TOKEN)).allowed).toBe(false);
    expect(withToken(from('198.51.100.9', '198.51.100.9', 'Bearer ')).allowed).toBe(false);
  });
});

describe('GET /metrics', () => {
  const metrics = { contentType: 'text/plain; version=0.0.4', exposition: async () => 'up 1\n' };
  async function appWith(token: string | undefined) {
    const app = Fastify();
    app.setErrorHandler(handleError);
    registerMetricsRoute(app, metrics as unknown as Metrics, token);
    await app.ready();
    return app;
  }

  it('answers this host and refuses another with 403 metrics_forbidden', async () => {
    const app = await appWith(undefined);
    const here = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(here.statusCode).toBe(200);
    expect(here.body).toBe('up 1\n');
    // Passed on by a reverse proxy on this host (from 127.0.0.1, as every outsider's request then is).
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip', 'via']) {
      const proxied = await app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '127.0.0.1',
        headers: { [header]: header === 'forwarded' ? 'for=198.51.100.9' : '198.51.100.9' },
      });
      expect(proxied.statusCode, header).toBe(403);
    }
    const away = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '198.51.100.9' });
    expect(away.statusCode).toBe(403);
    expect(away.body).toMatch(/^metrics_forbidden: .*TXMAIL_METRICS_TOKEN/);
    await app.close();
  });

  it('answers the bearer of the token from anywhere, and no one else', async () => {
    const app = await appWith(TOKEN);
    const get = (authorization?: string) =>
      app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '198.51.100.9',
        headers: authorization === undefined ? {} : { authorization },
      });
    expect((await get(`Bearer ${TOKEN}`)).statusCode).toBe(200);
    expect((await get()).statusCode).toBe(403);
    expect((await get('Bearer wrong-token-000000000')).statusCode).toBe(403);
    await app.close();
  });
});
