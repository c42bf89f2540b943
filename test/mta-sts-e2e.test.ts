// MTA-STS end to end: the real `txmail serve`, trusting the test CA through NODE_EXTRA_CA_CERTS as an
// operator's process would trust a public CA, delivers to a domain whose MTA-STS policy (served over
// HTTPS with a test-CA certificate) is `enforce` and does not list the domain's MX. The message is
// deferred with a reason that says so, and the mail host gets nothing; a domain without a policy still
// gets its mail; `txmail status` counts the stored policy. ARCHITECTURE.md, "TLS policy".
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { createServices } from '../src/services.js';
import { databaseKinds } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { HttpsSite } from './helpers/https-site.js';
import { runCli, startServer } from './helpers/process.js';
import { createTenant, validSend } from './helpers/services.js';
import { TestCa } from './helpers/test-ca.js';
import { testFacade } from './helpers/test-env.js';
import { until } from './helpers/wait.js';
import { apiFetch } from './helpers/server-contract.js';

const POLICY_IP = '127.0.0.82';

describe.each(databaseKinds)('MTA-STS enforce in txmail serve on $name', (kind) => {
  const mail = new MailFixture({ domains: ['secure.example', 'plain.example'] });
  const { dns, sink } = mail;
  let ca: TestCa;
  let site: HttpsSite;

  beforeAll(async () => {
    ca = new TestCa();
    await mail.start();
    site = await new HttpsSite(POLICY_IP, ca.issue(['fallback.invalid'])).start();
    dns.add('_mta-sts.secure.example', 'TXT', 'v=STSv1; id=20260110');
    dns.add('mta-sts.secure.example', 'A', POLICY_IP);
    site.certificate('mta-sts.secure.example', ca.issue(['mta-sts.secure.example']));
    site.answer('mta-sts.secure.example', {
      body: 'version: STSv1\r\nmode: enforce\r\nmx: mx.elsewhere.example\r\nmax_age: 86400\r\n',
    });
  });
  afterAll(async () => {
    await site?.stop();
    await mail.stop();
    ca?.remove();
  });

  it('defers mail to an MX the policy does not list, with the reason, and sends nothing there', async () => {
    const database = await kind.create();
    const env: Record<string, string> = {
      TXMAIL_DATABASE_URL: database.url,
      TXMAIL_HOSTNAME: 'mta.txmail.test',
      TXMAIL_SECRET_KEY: 's'.repeat(64),
      ...mail.env,
      TXMAIL_RATE_LIMIT: '0',
      TXMAIL_LOG_LEVEL: 'warn',
      NODE_EXTRA_CA_CERTS: ca.caFile,
    };
    const services = await createServices(parseConfig(env), { logger: pino({ level: 'silent' }) });
    const tenant = await createTenant(services, { domain: 'acme.example' });
    const facade = testFacade(services);
    const server = await startServer('serve', env);
    try {
      const send = async (to: string) => {
        const res = await apiFetch(server, '/api/email/send', {
          method: 'POST',
          headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ ...validSend, to }),
        });
        expect(res.status).toBe(200);
        return ((await res.json()) as { id: string }).id;
      };
      const attemptOf = (id: string) =>
        until(`the attempt of ${id}`, async () => (await facade.attempts(tenant.accountId, id))[0]);

      // Without a policy the mail goes (the path works, and the mail host answers).
      const plain = await send('someone@plain.example');
      expect((await attemptOf(plain)).outcome).toBe('delivered');
      expect(sink.for('someone@plain.example')).toHaveLength(1);

      const secure = await send('someone@secure.example');
      const attempt = await attemptOf(secure);
      expect(attempt.outcome).toBe('deferred');
      expect(attempt.reply).toMatch(/MTA-STS/i);
      expect(attempt.reply).toContain('mx.secure.example');
      const message = (await facade.message(tenant.accountId, secure))!;
      expect(message.status).toBe('deferred');
      expect(message.next_attempt_at).not.toBeNull();
      expect(sink.for('someone@secure.example')).toHaveLength(0);

      // The policy was fetched over HTTPS (the test CA trusted through NODE_EXTRA_CA_CERTS) and stored.
      expect(site.to('mta-sts.secure.example').length).toBeGreaterThanOrEqual(1);
      const stored = await facade.mtaStsPolicy('secure.example');
      expect(stored).toMatchObject({ id: '20260110', mode: 'enforce', mx: ['mx.elsewhere.example'] });
      // The operator sees it in `txmail status`.
      const status = await runCli(['status', '--json'], env);
      expect(JSON.parse(status.stdout)).toMatchObject({
        tls: { mta_sts: true, policies: { enforce: 1, testing: 0, none: 0 }, tls_reports: true },
      });
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await services.close();
      await database.drop();
    }
  });
});
