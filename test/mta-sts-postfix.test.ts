// MTA-STS against real Postfix MX hosts, end to end: the real `txmail serve`, trusting the test CA
// through NODE_EXTRA_CA_CERTS as an operator's process trusts a public CA, resolving through the test
// DNS server, fetching each recipient domain's policy over HTTPS (a test-CA certificate per policy
// host), and delivering to private Postfix instances (helpers/postfix-mx.ts) with STARTTLS. Each
// Postfix listens on its own loopback address, all on one port (TXMAIL_MX_PORT), so one txmail reaches
// each by the address its MX name resolves to. On both databases:
// - a policy in `enforce` listing an MX whose certificate is valid for its name: delivered over TLS;
// - `enforce` and a certificate for another name, or a TLS 1.0-only server: deferred, never sent,
//   never in cleartext;
// - the same servers under a policy in `testing`: delivered (over the certificate it could not verify,
//   or in cleartext after the failed handshake) and recorded as `mta-sts-testing`.
// ARCHITECTURE.md, "TLS policy" and "MTA-STS and TLS reporting".
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.js';
import { createServices, type Services } from '../src/services.js';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { HttpsSite } from './helpers/https-site.js';
import { PostfixMx, postfixTestsRun, type PostfixMxOptions } from './helpers/postfix-mx.js';
import { startServer, type RunningServer } from './helpers/process.js';
import { createTenant, validSend, type Tenant } from './helpers/services.js';
import { TestCa } from './helpers/test-ca.js';
import { until } from './helpers/wait.js';
import { apiFetch } from './helpers/server-contract.js';

/** The policy hosts' HTTPS server; the MX hosts' addresses follow (none used by another test file). */
const POLICY_IP = '127.0.0.84';

interface Detail {
  status: string;
  attempts: number;
  delivery_attempts: {
    outcome: string;
    remote_host: string | null;
    tls: boolean;
    tls_details: {
      version: string | null;
      cipher: string | null;
      certificate: 'valid' | 'invalid' | null;
      certificate_error: string | null;
      policy: string;
      cleartext_fallback: boolean;
    } | null;
    smtp_code: number | null;
    enhanced_code: string;
    reply: string;
  }[];
}

/** One recipient domain: its MX server (how its STARTTLS is broken, if at all) and its policy's mode. */
interface Site {
  domain: string;
  address: string;
  tls: 'valid' | 'wrongName' | 'tls10';
  mode: 'enforce' | 'testing';
}

const SITES = {
  valid: { domain: 'valid.example', address: '127.0.0.85', tls: 'valid', mode: 'enforce' },
  wrongNameEnforce: { domain: 'wrong-e.example', address: '127.0.0.86', tls: 'wrongName', mode: 'enforce' },
  tls10Enforce: { domain: 'tls10-e.example', address: '127.0.0.87', tls: 'tls10', mode: 'enforce' },
  wrongNameTesting: { domain: 'wrong-t.example', address: '127.0.0.88', tls: 'wrongName', mode: 'testing' },
  tls10Testing: { domain: 'tls10-t.example', address: '127.0.0.89', tls: 'tls10', mode: 'testing' },
} satisfies Record<string, Site>;
type SiteName = keyof typeof SITES;

/** One mailbox per database, so the two runs against the shared Postfix instances stay apart. */
const MAILBOXES = databaseKinds.map((k) => k.name);

const runs = postfixTestsRun();

describe.skipIf(!runs)('MTA-STS in txmail serve against real Postfix MX hosts', () => {
  const dns = new TestDnsServer();
  const ca = runs ? new TestCa() : undefined;
  let site: HttpsSite | undefined;
  const postfix = {} as Record<SiteName, PostfixMx>;

  beforeAll(async () => {
    await dns.start();
    site = await new HttpsSite(POLICY_IP, ca!.issue(['fallback.invalid'])).start();
    const options = {} as Record<SiteName, PostfixMxOptions>;
    for (const [name, s] of Object.entries(SITES) as [SiteName, Site][]) {
      const mx = `mx.${s.domain}`;
      dns.add(s.domain, 'MX', { preference: 10, exchange: mx });
      dns.add(mx, 'A', s.address);
      dns.add(`_mta-sts.${s.domain}`, 'TXT', 'v=STSv1; id=20260301');
      dns.add(`mta-sts.${s.domain}`, 'A', POLICY_IP);
      site.certificate(`mta-sts.${s.domain}`, ca!.issue([`mta-sts.${s.domain}`]));
      site.answer(`mta-sts.${s.domain}`, {
        body: `version: STSv1\r\nmode: ${s.mode}\r\nmx: ${mx}\r\nmax_age: 86400\r\n`,
      });
      // Issued by the trusted test CA, so only the name is wrong (the check MTA-STS adds to the chain's).
      const cert = ca!.issue(s.tls === 'wrongName' ? ['other.example'] : [mx]);
      options[name] = {
        domain: s.domain,
        mailboxes: MAILBOXES,
        host: s.address,
        tls: { ...cert, ...(s.tls === 'tls10' ? { tls10Only: true } : {}) },
      };
    }
    // The first instance takes a free port on its address; the others listen on the same port.
    postfix.valid = await new PostfixMx(options.valid).start();
    const rest = (Object.keys(SITES) as SiteName[]).filter((n) => n !== 'valid');
    await Promise.all(
      rest.map(async (name) => {
        postfix[name] = await new PostfixMx({ ...options[name], port: postfix.valid.port }).start();
      }),
    );
  }, 90_000);
  afterAll(async () => {
    await Promise.all(Object.values(postfix).map((p) => p.stop()));
    await site?.stop();
    await dns.stop();
    ca?.remove();
  });

  describe.each(databaseKinds)('on $name', (kind) => {
    let database: TestDatabase;
    let services: Services;
    let tenant: Tenant;
    let server: RunningServer;

    beforeAll(async () => {
      database = await kind.create();
      const env: Record<string, string> = {
        TXMAIL_DATABASE_URL: database.url,
        TXMAIL_SECRET_KEY: 's'.repeat(64),
        TXMAIL_DNS_SERVERS: dns.address,
        TXMAIL_MX_PORT: String(postfix.valid.port),
        TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true',
        TXMAIL_RATE_LIMIT: '0',
        TXMAIL_LOG_LEVEL: 'warn',
        NODE_EXTRA_CA_CERTS: ca!.caFile,
      };
      services = await createServices(parseConfig(env), { logger: pino({ level: 'silent' }) });
      tenant = await createTenant(services, { domain: 'acme.example' });
      server = await startServer('serve', env);
    }, 60_000);
    afterAll(async () => {
      if (server) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      await services?.close();
      await database?.drop();
    });

    const to = (name: SiteName) => `${kind.name}@${SITES[name].domain}`;

    async function send(name: SiteName): Promise<string> {
      const res = await apiFetch(server, '/api/email/send', {
        method: 'POST',
        headers: { 'x-api-key': tenant.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ ...validSend, to: to(name) }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return ((await res.json()) as { id: string }).id;
    }

    /**
     * The message's detail from the API once its first attempt is recorded (with its status, in one
     * transaction), checked to have left it `status`.
     */
    async function firstAttempt(id: string, status: string): Promise<Detail> {
      const d = await until(`the first attempt of message ${id}`, async () => {
        const res = await apiFetch(server, `/api/emails/${id}`, {
          headers: { 'x-api-key': tenant.apiKey },
        });
        const detail = (await res.json()) as Detail;
        return detail.delivery_attempts.length > 0 ? detail : undefined;
      });
      expect(d.status, JSON.stringify(d.delivery_attempts)).toBe(status);
      return d;
    }

    /** The messages Postfix stored for this run's mailbox, waited for until there is one. */
    const arrived = (name: SiteName) =>
      until(`Postfix to store the message for ${to(name)}`, async () => {
        const got = postfix[name].delivered(kind.name);
        return got.length > 0 ? got.map((m) => m.toString('latin1')) : undefined;
      });

    /** Postfix's log lines for sessions that ended (`disconnect from …`), once one matches `pattern`. */
    const sessionsOnceOne = (name: SiteName, pattern: RegExp) =>
      until(`Postfix for ${SITES[name].domain} to log a session like ${pattern}`, async () => {
        const lines = postfix[name]
          .log()
          .split('\n')
          .filter((l) => /disconnect from /.test(l));
        return lines.some((l) => pattern.test(l)) ? lines : undefined;
      });

    it('delivers over verified TLS to an MX the enforce policy lists, recorded as mta-sts', async () => {
      const d = await firstAttempt(await send('valid'), 'delivered');
      expect(d.attempts).toBe(1);
      const attempt = d.delivery_attempts[0]!;
      expect(attempt).toMatchObject({
        outcome: 'delivered',
        smtp_code: 250,
        tls: true,
        remote_host: 'mx.valid.example',
      });
      expect(attempt.tls_details).toEqual({
        version: expect.stringMatching(/^TLSv1\.[23]$/),
        cipher: expect.stringMatching(/^TLS_/),
        certificate: 'valid',
        certificate_error: null,
        policy: 'mta-sts',
        cleartext_fallback: false,
      });
      // Postfix saw the same session: its Received header names the protocol and cipher.
      const [message] = await arrived('valid');
      expect(message).toContain(`using ${attempt.tls_details!.version} with cipher`);
      expect(message).toContain(attempt.tls_details!.cipher!);
      // The policy came over HTTPS from its host, whose certificate the test CA issued.
      expect(site!.to('mta-sts.valid.example').length).toBeGreaterThanOrEqual(1);
    });

    it('defers under enforce when the MX certificate is for another name, and sends nothing', async () => {
      const d = await firstAttempt(await send('wrongNameEnforce'), 'deferred');
      expect(d.attempts).toBe(1);
      const attempt = d.delivery_attempts[0]!;
      expect(attempt).toMatchObject({
        outcome: 'deferred',
        smtp_code: null,
        enhanced_code: '4.7.5',
        tls: true,
        remote_host: 'mx.wrong-e.example',
      });
      expect(attempt.reply).toMatch(
        /^TLS is required by the MTA-STS policy of wrong-e\.example \(enforce\): the certificate of mx\.wrong-e\.example is not valid for it: .*not in the cert's altnames.*; not delivered$/,
      );
      expect(attempt.tls_details).toMatchObject({
        version: expect.stringMatching(/^TLSv1\.[23]$/),
        certificate: 'invalid',
        certificate_error: expect.stringContaining("not in the cert's altnames: DNS:other.example"),
        policy: 'mta-sts',
        cleartext_fallback: false,
      });
      // The session ended after its EHLO over TLS: no MAIL FROM, and no other session carried mail.
      const sessions = await sessionsOnceOne('wrongNameEnforce', /ehlo=2 starttls=1 quit=1 commands=4/);
      expect(sessions.filter((l) => /\bmail=/.test(l))).toEqual([]);
      expect(postfix.wrongNameEnforce.delivered(kind.name)).toHaveLength(0);
    });

    it('defers under enforce when the STARTTLS handshake fails (TLS 1.0 only), never in cleartext', async () => {
      const d = await firstAttempt(await send('tls10Enforce'), 'deferred');
      expect(d.attempts).toBe(1);
      const attempt = d.delivery_attempts[0]!;
      expect(attempt).toMatchObject({
        outcome: 'deferred',
        smtp_code: null,
        enhanced_code: '4.7.5',
        tls: false,
        remote_host: 'mx.tls10-e.example',
      });
      expect(attempt.reply).toMatch(
        /^TLS is required by the MTA-STS policy of tls10-e\.example \(enforce\): the TLS handshake with mx\.tls10-e\.example failed \(.+\); not delivered$/,
      );
      expect(attempt.tls_details).toEqual({
        version: null,
        cipher: null,
        certificate: null,
        certificate_error: null,
        policy: 'mta-sts',
        cleartext_fallback: false,
      });
      // Postfix: the handshake failed, and no session (a cleartext one least of all) carried mail.
      const sessions = await sessionsOnceOne('tls10Enforce', /starttls=0\/1/);
      expect(postfix.tls10Enforce.log()).toMatch(/SSL_accept error/);
      expect(sessions.filter((l) => /\bmail=/.test(l))).toEqual([]);
      expect(postfix.tls10Enforce.delivered(kind.name)).toHaveLength(0);
    });

    it('delivers under testing over a certificate for another name, recorded as mta-sts-testing', async () => {
      const d = await firstAttempt(await send('wrongNameTesting'), 'delivered');
      const attempt = d.delivery_attempts[0]!;
      expect(attempt).toMatchObject({ outcome: 'delivered', smtp_code: 250, tls: true });
      expect(attempt.tls_details).toEqual({
        version: expect.stringMatching(/^TLSv1\.[23]$/),
        cipher: expect.stringMatching(/^TLS_/),
        certificate: 'invalid',
        certificate_error: expect.stringContaining("not in the cert's altnames: DNS:other.example"),
        policy: 'mta-sts-testing',
        cleartext_fallback: false,
      });
      const [message] = await arrived('wrongNameTesting');
      expect(message).toContain(`using ${attempt.tls_details!.version} with cipher`);
    });

    it('delivers under testing in cleartext after the failed handshake, recorded as mta-sts-testing', async () => {
      const d = await firstAttempt(await send('tls10Testing'), 'delivered');
      expect(d.attempts).toBe(1);
      const attempt = d.delivery_attempts[0]!;
      expect(attempt).toMatchObject({ outcome: 'delivered', smtp_code: 250, tls: false });
      expect(attempt.tls_details).toEqual({
        version: null,
        cipher: null,
        certificate: null,
        certificate_error: null,
        policy: 'mta-sts-testing',
        cleartext_fallback: true,
      });
      const [message] = await arrived('tls10Testing');
      expect(message).toMatch(/^Subject: Reset your password/m);
      expect(message).not.toMatch(/using TLS/);
      expect(postfix.tls10Testing.log()).toMatch(/SSL_accept error/);
    });
  });
});
