// Operations: GET /api/account, /metrics, /openapi.json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { sendRequestSchema } from '../src/messages/send-request.js';
import { databaseKinds } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { until } from './helpers/wait.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

/** The value of one sample in Prometheus text format, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(databaseKinds)('operations on $name', (kind) => {
  let env: TestEnv;
  let tenant: Tenant;
  const clock = new ManualClock(Date.UTC(2026, 10, 30, 23, 0, 0));
  const mail = new MailFixture({ domains: ['dest.example'] });
  const { sink } = mail;

  beforeAll(async () => {
    await mail.start();
    env = await startTestEnv(kind, { clock, env: mail.env });
    tenant = await createTenant(env.services, { plan: 'free', domain: 'acme.example' });
  });
  afterAll(async () => {
    await env.close();
    await mail.stop();
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    env.app.inject({ method, url, headers: { 'x-api-key': tenant.apiKey }, ...(payload ? { payload } : {}) });

  it('shows the plan, state, this month’s usage and limits on GET /api/account', async () => {
    expect((await call('POST', '/api/email/send', { ...validSend, to: 'a@dest.example' })).statusCode).toBe(
      200,
    );
    expect((await call('POST', '/api/email/send/test', validSend)).statusCode).toBe(200);
    const res = await call('GET', '/api/account');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: tenant.accountId,
      email: tenant.email,
      plan: 'free',
      state: 'production',
      suspended: false,
      usage: {
        month: '2026-11',
        sent: 1,
        limit: 1000,
        remaining: 999,
        resets_at: '2026-12-01T00:00:00.000Z',
      },
      limits: { emails_per_month: 1000, domains: 1, webhooks: 0, log_retention_hours: 48 },
      counts: { domains: 1, webhooks: 0 },
    });

    // A new month starts from zero; a plan change shows at once.
    clock.set(Date.UTC(2026, 11, 1, 0, 0, 1));
    await env.setPlan(tenant.accountId, 'scale');
    expect((await call('GET', '/api/account')).json()).toMatchObject({
      plan: 'scale',
      usage: { month: '2026-12', sent: 0, limit: 100_000 },
      limits: { log_retention_hours: null },
    });
    expect((await env.app.inject({ method: 'GET', url: '/api/account' })).statusCode).toBe(401);
  });

  it('exposes accepted, attempts, events, queue depth, latency and HTTP durations on /metrics', async () => {
    const scrape = async () => {
      const res = await env.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      return res.body;
    };
    const before = await scrape();
    const sends = sample(before, 'txmail_emails_accepted_total{route="send"}') ?? 0;
    expect((await call('POST', '/api/email/send', { ...validSend, to: 'b@dest.example' })).statusCode).toBe(
      200,
    );
    const queued = await scrape();
    expect(sample(queued, 'txmail_emails_accepted_total{route="send"}')).toBe(sends + 1);
    expect(sample(queued, 'txmail_queue_depth')).toBeGreaterThanOrEqual(1);
    expect(sample(queued, 'txmail_queue_oldest_age_seconds')).toBeGreaterThanOrEqual(0);

    await env.services.startWorker({ pollMs: 50 });
    await until('both delivered', async () => (sink.received.length >= 2 ? true : undefined));
    const after = await until('the delivery counted', async () => {
      const text = await scrape();
      // Both from one scrape: the queue gauge's query may have run just before the last record.
      return sample(text, 'txmail_delivery_attempts_total{outcome="delivered"}') === 2 &&
        sample(text, 'txmail_queue_depth') === 0
        ? text
        : undefined;
    });
    expect(sample(after, 'txmail_email_events_total{type="email.delivered"}')).toBe(2);
    expect(sample(after, 'txmail_delivery_latency_seconds_count')).toBe(2);
    expect(sample(after, 'txmail_queue_depth')).toBe(0);
    expect(
      sample(
        after,
        'txmail_http_request_duration_seconds_count{method="POST",route="/api/email/send",status="200"}',
      ),
    ).toBeGreaterThanOrEqual(2);
  });

  it('serves an OpenAPI 3.1 document built from the schemas that validate requests', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: unknown }> }; security?: unknown }>
      >;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    const send = doc.paths['/api/email/send']!.post!;
    expect(send.requestBody!.content['application/json']!.schema).toMatchObject({
      required: sendRequestSchema.required,
      additionalProperties: false,
    });
    // Either an API key (servers) or the dashboard's session cookie (+ CSRF header).
    expect(send.security).toEqual([{ apiKey: [] }, { session: [] }]);
    expect(doc.components.securitySchemes.apiKey).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
    });
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/email/send/test',
        '/api/emails',
        '/api/emails/{id}',
        '/api/account',
        '/api/auth/session',
        '/api/api-keys',
        '/api/guided-test',
        '/healthz',
      ]),
    );
    expect(doc.paths['/metrics']).toBeUndefined();
    // The dashboard's catch-all page route is not part of the API.
    expect(doc.paths['/*']).toBeUndefined();
  });
});
