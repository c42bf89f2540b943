// TLS policy against a real Postfix as the recipient's MX (helpers/postfix-mx.ts with STARTTLS and a
// certificate of a test CA, helpers/test-ca.ts), on both databases: what each attempt records of its
// session (version, cipher, certificate verdict, policy), the cleartext retry after a failed handshake
// (a TLS 1.0-only Postfix), and a sending domain's `tls: "required"`, which sends only over TLS with a
// certificate valid for the MX host's name and otherwise defers with the reason (ARCHITECTURE.md, "TLS
// policy").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { PostfixMx, postfixTestsRun } from './helpers/postfix-mx.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';
import { TestCa } from './helpers/test-ca.js';
import { until } from './helpers/wait.js';

interface TlsDetailsJson {
  version: string | null;
  cipher: string | null;
  certificate: 'valid' | 'invalid' | null;
  certificate_error: string | null;
  policy: string;
  cleartext_fallback: boolean;
}

interface Detail {
  status: string;
  attempts: number;
  events: { type: string; data: Record<string, unknown> }[];
  delivery_attempts: {
    outcome: string;
    remote_host: string | null;
    tls: boolean;
    tls_details: TlsDetailsJson | null;
    smtp_code: number | null;
    enhanced_code: string;
    reply: string;
  }[];
}

const MIN = 60_000;
const DOMAIN = 'tls.example';
const MX = `mx.${DOMAIN}`;
/** One mailbox per database, so the two runs against the shared Postfix instances stay apart. */
const MAILBOXES = databaseKinds.map((k) => k.name);

const runs = postfixTestsRun();

describe.skipIf(!runs)('delivery under TLS policy to a real Postfix', () => {
  const dnsServer = new TestDnsServer();
  const ca = runs ? new TestCa() : undefined;
  const postfix = (tls?: { certFile: string; keyFile: string; tls10Only?: boolean }) =>
    new PostfixMx({ domain: DOMAIN, mailboxes: MAILBOXES, ...(tls ? { tls } : {}) });
  // Postfix instances, one per kind of server; every MX look-up answers 127.0.0.1, and each txmail
  // instance below is pointed at one of them by its port (TXMAIL_MX_PORT).
  const servers = runs
    ? {
        valid: postfix(ca!.issue([MX])),
        tls10: postfix({ ...ca!.issue([MX]), tls10Only: true }),
        expired: postfix(ca!.issue([MX], { days: -1 })),
        selfSigned: postfix(ca!.issue([MX], { selfSigned: true })),
        wrongName: postfix(ca!.issue(['other.example'])),
        plain: postfix(),
      }
    : undefined;

  beforeAll(async () => {
    await dnsServer.start();
    dnsServer.add(DOMAIN, 'MX', { preference: 10, exchange: MX });
    dnsServer.add(MX, 'A', '127.0.0.1');
    await Promise.all(Object.values(servers!).map((s) => s.start()));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(Object.values(servers ?? {}).map((s) => s.stop()));
    await dnsServer.stop();
    ca?.remove();
  });

  describe.each(databaseKinds)('on $name', (kind) => {
    const to = `${kind.name}@${DOMAIN}`;

    /**
     * A txmail instance delivering to `server`, with one tenant; `trustCa`: the test CA is trusted
     * (as a system's roots trust a public one); `required`: the tenant's domain sets `tls: "required"`.
     */
    async function txmail(
      server: PostfixMx,
      options: { trustCa: boolean; required?: boolean },
    ): Promise<{ env: TestEnv; tenant: Tenant }> {
      const env = await startTestEnv(kind, {
        env: {
          TXMAIL_DNS_SERVERS: dnsServer.address,
          TXMAIL_MX_PORT: String(server.port),
          TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true',
        },
      });
      const tenant = await createTenant(env.services, { domain: 'acme.example' });
      if (options.required) {
        const list = await call(env, tenant, 'GET', '/api/domains');
        const id = (list.json() as { data: { id: string }[] }).data[0]!.id;
        const res = await call(env, tenant, 'PATCH', `/api/domains/${id}`, { tls: 'required' });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ tls: 'required' });
      }
      // A poll interval far beyond every wait below: the worker runs because a commit wakes it, and
      // a deferred message is not tried again within the test.
      await env.services.startWorker({ pollMs: 10 * MIN }, {}, options.trustCa ? { ca: [ca!.ca] } : {});
      return { env, tenant };
    }

    const call = (env: TestEnv, tenant: Tenant, method: 'GET' | 'PATCH', url: string, payload?: unknown) =>
      env.app.inject({
        method,
        url,
        headers: { 'x-api-key': tenant.apiKey },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });

    async function send(env: TestEnv, tenant: Tenant): Promise<string> {
      const res = await env.app.inject({
        method: 'POST',
        url: '/api/email/send',
        headers: { 'x-api-key': tenant.apiKey },
        payload: { ...validSend, to },
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { id: string }).id;
    }

    const settled = (env: TestEnv, tenant: Tenant, id: string, status: string) =>
      until(`message ${id} to be ${status}`, async () => {
        const d = (await call(env, tenant, 'GET', `/api/emails/${id}`)).json() as Detail;
        return d.status === status ? d : undefined;
      });

    const metrics = async (env: TestEnv) => (await env.app.inject({ method: 'GET', url: '/metrics' })).body;

    /** The messages `server` stored for this run's mailbox, waited for until there are `n`. */
    const arrived = (server: PostfixMx, n: number) =>
      until(`Postfix to store ${n} message(s) for ${to}`, async () => {
        const got = server.delivered(kind.name);
        return got.length >= n ? got.map((m) => m.toString('latin1')) : undefined;
      });

    /** Lines of the server's log matching `pattern`, once there are more than `before`. */
    const moreLines = (server: PostfixMx, pattern: RegExp, before: number) =>
      until(`Postfix to log ${pattern}`, async () => {
        const lines = server
          .log()
          .split('\n')
          .filter((l) => pattern.test(l));
        return lines.length > before ? lines : undefined;
      });
    const count = (server: PostfixMx, pattern: RegExp) =>
      server
        .log()
        .split('\n')
        .filter((l) => pattern.test(l)).length;

    it('records the TLS version, cipher and a valid certificate when the CA is trusted', async () => {
      const server = servers!.valid;
      const { env, tenant } = await txmail(server, { trustCa: true });
      try {
        const d = await settled(env, tenant, await send(env, tenant), 'delivered');
        const attempt = d.delivery_attempts[0]!;
        expect(attempt).toMatchObject({ outcome: 'delivered', smtp_code: 250, tls: true, remote_host: MX });
        expect(attempt.tls_details).toEqual({
          version: expect.stringMatching(/^TLSv1\.[23]$/),
          cipher: expect.stringMatching(/^TLS_/),
          certificate: 'valid',
          certificate_error: null,
          policy: 'opportunistic',
          cleartext_fallback: false,
        });
        // The delivery event carries the same.
        const delivered = d.events.find((e) => e.type === 'email.delivered');
        expect(delivered?.data.tls_details).toEqual(attempt.tls_details);
        // Postfix saw the same session: its Received header names the protocol and cipher.
        const [message] = await arrived(server, 1);
        expect(message).toContain(`using ${attempt.tls_details!.version} with cipher`);
        expect(message).toContain(attempt.tls_details!.cipher!);
        expect(await metrics(env)).toMatch(
          /^txmail_delivery_tls_total\{policy="opportunistic",result="tls_valid"\} 1$/m,
        );
      } finally {
        await env.close();
      }
    });

    it('delivers opportunistically over a certificate it cannot verify, and says why it did not', async () => {
      const server = servers!.valid;
      const before = server.delivered(kind.name).length;
      const { env, tenant } = await txmail(server, { trustCa: false });
      try {
        const d = await settled(env, tenant, await send(env, tenant), 'delivered');
        expect(d.delivery_attempts[0]!.tls).toBe(true);
        expect(d.delivery_attempts[0]!.tls_details).toMatchObject({
          version: expect.stringMatching(/^TLSv1\.[23]$/),
          certificate: 'invalid',
          certificate_error: expect.stringMatching(
            /unable to (get local issuer|verify the first) certificate/,
          ),
          policy: 'opportunistic',
          cleartext_fallback: false,
        });
        await arrived(server, before + 1);
      } finally {
        await env.close();
      }
    });

    it('sends in cleartext on a new connection after a failed STARTTLS handshake (a TLS 1.0-only server)', async () => {
      const server = servers!.tls10;
      const before = server.delivered(kind.name).length;
      const failedHandshakes = count(server, /SSL_accept error/);
      const { env, tenant } = await txmail(server, { trustCa: true });
      try {
        const d = await settled(env, tenant, await send(env, tenant), 'delivered');
        expect(d.attempts).toBe(1);
        const attempt = d.delivery_attempts[0]!;
        expect(attempt).toMatchObject({ outcome: 'delivered', smtp_code: 250, tls: false });
        expect(attempt.tls_details).toEqual({
          version: null,
          cipher: null,
          certificate: null,
          certificate_error: null,
          policy: 'opportunistic',
          cleartext_fallback: true,
        });
        // Postfix: the handshake failed ("unsupported protocol"), then the message came in cleartext.
        await moreLines(server, /SSL_accept error/, failedHandshakes);
        expect(server.log()).toMatch(/unsupported protocol/);
        const messages = await arrived(server, before + 1);
        const message = messages[messages.length - 1]!;
        expect(message).toMatch(/^Subject: Reset your password/m);
        expect(message).not.toMatch(/using TLS/);
        expect(await metrics(env)).toMatch(
          /^txmail_delivery_tls_total\{policy="opportunistic",result="cleartext_fallback"\} 1$/m,
        );
      } finally {
        await env.close();
      }
    });

    it('defers, never in cleartext, when the sending domain requires TLS and the handshake fails', async () => {
      const server = servers!.tls10;
      const before = server.delivered(kind.name).length;
      const sessions = count(server, /disconnect from .* starttls=0\/1/);
      const { env, tenant } = await txmail(server, { trustCa: true, required: true });
      try {
        const d = await settled(env, tenant, await send(env, tenant), 'deferred');
        expect(d.attempts).toBe(1);
        const attempt = d.delivery_attempts[0]!;
        expect(attempt).toMatchObject({
          outcome: 'deferred',
          smtp_code: null,
          enhanced_code: '4.7.5',
          tls: false,
          remote_host: MX,
        });
        expect(attempt.reply).toMatch(
          /^TLS is required by the sending domain's policy: the TLS handshake with mx\.tls\.example failed \(tlsv1 alert protocol version\); not delivered$/,
        );
        expect(attempt.tls_details).toMatchObject({ policy: 'required', cleartext_fallback: false });
        expect(d.events.find((e) => e.type === 'email.delivery_delayed')?.data).toMatchObject({
          category: 'network_error',
          reason: attempt.reply,
        });
        // The one session ended at its failed handshake; nothing reached a mailbox.
        await moreLines(server, /disconnect from .* starttls=0\/1/, sessions);
        expect(server.delivered(kind.name)).toHaveLength(before);
        expect(await metrics(env)).toMatch(
          /^txmail_delivery_tls_total\{policy="required",result="refused"\} 1$/m,
        );
      } finally {
        await env.close();
      }
    });

    it('delivers when the sending domain requires TLS and the certificate is valid for the host', async () => {
      const server = servers!.valid;
      const before = server.delivered(kind.name).length;
      const { env, tenant } = await txmail(server, { trustCa: true, required: true });
      try {
        const d = await settled(env, tenant, await send(env, tenant), 'delivered');
        expect(d.delivery_attempts[0]!.tls_details).toMatchObject({
          certificate: 'valid',
          policy: 'required',
          cleartext_fallback: false,
        });
        await arrived(server, before + 1);
      } finally {
        await env.close();
      }
    });

    it.each([
      ['expired', 'certificate has expired'],
      ['selfSigned', 'self-signed certificate'],
      ['wrongName', "is not in the cert's altnames"],
    ] as const)(
      'defers when the sending domain requires TLS and the certificate is not valid: %s',
      async (which, words) => {
        const server = servers![which];
        // The session is refused after its TLS EHLO: no MAIL FROM, then QUIT.
        const refusedSession = /disconnect from \S+ ehlo=2 starttls=1 quit=1 commands=4/;
        const sessions = count(server, refusedSession);
        const { env, tenant } = await txmail(server, { trustCa: true, required: true });
        try {
          const d = await settled(env, tenant, await send(env, tenant), 'deferred');
          const attempt = d.delivery_attempts[0]!;
          expect(attempt).toMatchObject({ outcome: 'deferred', smtp_code: null, tls: true });
          expect(attempt.reply).toMatch(
            /^TLS is required by the sending domain's policy: the certificate of mx\.tls\.example is not valid for it: /,
          );
          expect(attempt.reply).toContain(words);
          expect(attempt.tls_details).toMatchObject({
            version: expect.stringMatching(/^TLSv1\.[23]$/),
            certificate: 'invalid',
            certificate_error: expect.stringContaining(words),
            policy: 'required',
          });
          await moreLines(server, refusedSession, sessions);
          expect(server.delivered(kind.name)).toHaveLength(0);
          expect(server.log()).not.toMatch(/status=sent/);
        } finally {
          await env.close();
        }
      },
    );

    it('sends in cleartext to a server without STARTTLS, unless the sending domain requires TLS', async () => {
      const server = servers!.plain;
      const first = await txmail(server, { trustCa: true });
      try {
        const d = await settled(first.env, first.tenant, await send(first.env, first.tenant), 'delivered');
        expect(d.delivery_attempts[0]!.tls_details).toMatchObject({
          version: null,
          certificate: null,
          policy: 'opportunistic',
          cleartext_fallback: false,
        });
        expect(await metrics(first.env)).toMatch(
          /^txmail_delivery_tls_total\{policy="opportunistic",result="cleartext"\} 1$/m,
        );
      } finally {
        await first.env.close();
      }
      const before = server.delivered(kind.name).length;
      const { env, tenant } = await txmail(server, { trustCa: true, required: true });
      try {
        const d = await settled(env, tenant, await send(env, tenant), 'deferred');
        expect(d.delivery_attempts[0]).toMatchObject({
          enhanced_code: '4.7.4',
          reply:
            "TLS is required by the sending domain's policy: mx.tls.example offered no STARTTLS; not delivered",
        });
        expect(server.delivered(kind.name)).toHaveLength(before);
      } finally {
        await env.close();
      }
    });
  });
});
