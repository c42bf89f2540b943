// `txmail worker` with TXMAIL_WORKER_HEALTH_PORT: the role has no API listener, so probes and scrapes
// get their own small one, with the delivery metrics of that process.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { databaseKinds } from './helpers/databases.js';
import { freePort, startServer, type RunningServer } from './helpers/process.js';
import { createTenant, validSend } from './helpers/services.js';
import { SmtpSink } from './helpers/smtp-sink.js';
import { until } from './helpers/wait.js';
import { expectCleanStop, expectHealthOnly, metricsWith } from './helpers/health-listener.js';

const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;

describe('txmail worker with TXMAIL_WORKER_HEALTH_PORT', () => {
  it('answers /healthz, /readyz and /metrics (counting what it delivered), and nothing else', async () => {
    const database = await sqlite.create();
    const sink = await new SmtpSink().start();
    const healthPort = await freePort();
    const vars = {
      TXMAIL_DATABASE_URL: database.url,
      TXMAIL_HOSTNAME: 'mta.txmail.test',
      TXMAIL_SECRET_KEY: 'w'.repeat(64),
      TXMAIL_RELAY_URL: `smtp://127.0.0.1:${sink.port}`,
      TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true',
      TXMAIL_WORKER_HEALTH_PORT: String(healthPort),
      TXMAIL_LOG_LEVEL: 'warn',
    };
    const services = await createServices(parseConfig(vars), { logger: pino({ level: 'silent' }) });
    let server: RunningServer | undefined;
    try {
      const tenant = await createTenant(services, { domain: 'acme.example' });
      const app = services.http();
      const sent = await app.inject({
        method: 'POST',
        url: '/api/email/send',
        headers: { 'x-api-key': tenant.apiKey },
        payload: { ...validSend, to: 'probe@dest.example' },
      });
      expect(sent.statusCode).toBe(200);
      await app.close();

      // startServer waits for /healthz on the health port: the role has no other HTTP listener.
      server = await startServer('worker', vars, healthPort);
      await expectHealthOnly(server.url);
      await until('the delivery', async () => sink.for('probe@dest.example')[0]);
      const metrics = await metricsWith(server.url, 'txmail_delivery_attempts_total{outcome="delivered"} 1');
      expect(metrics).toContain('txmail_queue_depth');

      await expectCleanStop(server);
    } finally {
      server?.child.kill('SIGKILL');
      await services.close();
      await sink.stop();
      await database.drop();
    }
  });
});
