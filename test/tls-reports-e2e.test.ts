// TLS reporting against real parts: two counters (two processes) record sessions and flush them into the
// real database; the daily run, elected by the schedule row and driven by the clock, looks up
// `_smtp._tls` in the DNS test server and sends each domain's report: by mail, DKIM-signed, straight to
// the rua domain's MX (a real SMTP server), and by HTTPS POST to a real HTTPS server with a test-CA
// certificate. A report not accepted is tried again on the next run; one accepted is not sent again.
import { promises as nodeDns } from 'node:dns';
import { gunzipSync } from 'node:zlib';
import { simpleParser } from 'mailparser';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import type { TlsRequirement } from '../src/delivery/tls-policy.js';
import { SmtpTransport } from '../src/delivery/smtp-transport.js';
import { dkimRecordValue } from '../src/dkim/keys.js';
import { DnsResolver } from '../src/dns/resolver.js';
import { TlsReportCounter } from '../src/tls-reports/counter.js';
import type { TlsRptReport } from '../src/tls-reports/report.js';
import { DEFAULT_REPORTER_OPTIONS, TlsReporter } from '../src/tls-reports/reporter.js';
import { reportSenders } from '../src/tls-reports/send-report.js';
import { databaseKinds } from './helpers/databases.js';
import { HttpsSite } from './helpers/https-site.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { startTestEnv, type TestEnv } from './helpers/services.js';
import { TestCa } from './helpers/test-ca.js';

const COLLECTOR_IP = '127.0.0.83';
const TEST_DOMAIN = 'test.mta.txmail.test';
const ENFORCE: TlsRequirement = {
  policy: 'mta-sts',
  requireVerified: true,
  sts: 'enforce',
  mxPatterns: ['mx.mail.example'],
  policyDomain: 'mail.example',
  policyStrings: ['version: STSv1', 'mode: enforce', 'mx: mx.mail.example', 'max_age: 86400'],
};

let ca: TestCa;
const mail = new MailFixture({ domains: ['reports.example'] });
const { dns, sink } = mail;
let collector: HttpsSite;

beforeAll(async () => {
  ca = new TestCa();
  await mail.start();
  collector = await new HttpsSite(COLLECTOR_IP, ca.issue(['collector.example'])).start();
  dns.add('collector.example', 'A', COLLECTOR_IP);
});
afterAll(async () => {
  await collector?.stop();
  await mail.stop();
  ca?.remove();
});

describe.each(databaseKinds)('TLS reports on $name', (kind) => {
  let env: TestEnv;
  let clock: ManualClock;
  let transport: SmtpTransport;
  const logger = pino({ level: 'silent' });
  // Domains differ per database: the DNS, SMTP and HTTPS servers are shared.
  const mailDomain = `mail-${kind.name}.example`;
  const postDomain = `post-${kind.name}.example`;
  const silentDomain = `silent-${kind.name}.example`;
  const rua = `tlsrpt-${kind.name}@reports.example`;

  beforeAll(async () => {
    clock = new ManualClock(Date.UTC(2026, 0, 10, 12));
    env = await startTestEnv(kind, { clock });
    const key = await env.services.dkim.ensureServiceKey(TEST_DOMAIN);
    // Each database has its own key under the same dated selector: the DNS server serves this one's.
    dns.remove(`${key.selector}._domainkey.${TEST_DOMAIN}`);
    dns.add(`${key.selector}._domainkey.${TEST_DOMAIN}`, 'TXT', dkimRecordValue(key.public_key));
    dns.add(`_smtp._tls.${mailDomain}`, 'TXT', `v=TLSRPTv1; rua=mailto:${rua}`);
    dns.add(`_smtp._tls.${postDomain}`, 'TXT', `v=TLSRPTv1; rua=https://collector.example/v1/${kind.name}`);
    transport = new SmtpTransport({ hostname: 'mta.txmail.test' });
  });
  afterAll(async () => {
    await transport?.close();
    await env?.close();
  });

  const reporter = () =>
    new TlsReporter(
      {
        repo: env.services.repos.tlsReports,
        dns: new DnsResolver([dns.address]),
        senders: reportSenders({
          dns: new DnsResolver([dns.address]),
          transport,
          relay: undefined,
          mxPort: sink.port,
          allowPrivate: true,
          ca: ca.ca,
        }),
        signingKey: () => env.services.dkim.signingKey(TEST_DOMAIN, null),
        clock,
        logger,
      },
      {
        ...DEFAULT_REPORTER_OPTIONS,
        submitter: 'mta.txmail.test',
        contact: 'ops@txmail.test',
        from: `tls-reports@${TEST_DOMAIN}`,
      },
    );

  it('counts sessions from several processes and mails and posts the day report', async () => {
    const one = new TlsReportCounter(env.services.repos.tlsReports, clock, logger);
    const two = new TlsReportCounter(env.services.repos.tlsReports, clock, logger);
    const enforce = { ...ENFORCE, policyDomain: mailDomain };
    for (let i = 0; i < 3; i++) {
      one.record({
        recipientDomain: mailDomain,
        requirement: enforce,
        sourceIp: '127.0.0.1',
        sessions: [{ mxHost: 'mx.mail.example', receivingIp: '192.0.2.10', ok: true }],
      });
    }
    two.record({
      recipientDomain: mailDomain,
      requirement: enforce,
      sourceIp: '127.0.0.1',
      sessions: [
        { mxHost: 'mx.mail.example', receivingIp: '192.0.2.10', ok: true },
        { mxHost: 'mx.mail.example', receivingIp: '192.0.2.11', ok: false, failure: 'certificate-expired' },
      ],
    });
    two.record({
      recipientDomain: postDomain,
      requirement: { policy: 'opportunistic', requireVerified: false },
      sourceIp: null,
      sessions: [
        {
          mxHost: 'mx.post.example',
          receivingIp: '192.0.2.20',
          ok: false,
          failure: 'starttls-not-supported',
        },
      ],
    });
    one.record({
      recipientDomain: silentDomain,
      requirement: { policy: 'opportunistic', requireVerified: false },
      sourceIp: null,
      sessions: [{ mxHost: 'mx.silent.example', receivingIp: '192.0.2.30', ok: true }],
    });
    await one.flush();
    await two.flush();
    // A second flush with nothing new adds nothing.
    await one.flush();
    // The collector fails at first: that report must come again on a later run.
    collector.answer('collector.example', { status: 503, body: 'busy' });

    // During the day nothing is reported; the run is taken by one process only.
    const first = reporter();
    expect(await first.tick()).toBe(true);
    expect(await reporter().tick()).toBe(false);
    expect(sink.for(rua)).toHaveLength(0);

    // The next day, once settled.
    clock.set(Date.UTC(2026, 0, 11, 1, 30));
    expect(await reporter().tick()).toBe(true);
    const mails = sink.for(rua);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.from).toBe(`tls-reports@${TEST_DOMAIN}`);
    const parsed = await simpleParser(mail.raw);
    expect(parsed.headers.get('tls-report-domain')).toBe(mailDomain);
    expect(parsed.headers.get('tls-report-submitter')).toBe('mta.txmail.test');
    expect(parsed.headers.get('content-type')).toMatchObject({
      value: 'multipart/report',
      params: { 'report-type': 'tlsrpt' },
    });
    expect(parsed.subject).toContain(`Report Domain: ${mailDomain} Submitter: mta.txmail.test`);
    const attachment = parsed.attachments.find((a) => a.contentType === 'application/tlsrpt+gzip');
    expect(attachment?.filename).toMatch(
      new RegExp(
        `^mta\\.txmail\\.test!${mailDomain.replace(/\./g, '\\.')}!1768003200!1768089599!2026-01-10_[0-9a-f]{24}\\.json\\.gz$`,
      ),
    );
    const report = JSON.parse(gunzipSync(attachment!.content).toString('utf8')) as TlsRptReport;
    expect(report).toMatchObject({
      'organization-name': 'mta.txmail.test',
      'contact-info': 'ops@txmail.test',
      'date-range': { 'start-datetime': '2026-01-10T00:00:00Z', 'end-datetime': '2026-01-10T23:59:59Z' },
      policies: [
        {
          policy: {
            'policy-type': 'sts',
            'policy-string': ENFORCE.policyStrings,
            'policy-domain': mailDomain,
            'mx-host': ['mx.mail.example'],
          },
          summary: { 'total-successful-session-count': 4, 'total-failure-session-count': 1 },
          'failure-details': [
            {
              'result-type': 'certificate-expired',
              'sending-mta-ip': '127.0.0.1',
              'receiving-mx-hostname': 'mx.mail.example',
              'receiving-ip': '192.0.2.11',
              'failed-session-count': 1,
            },
          ],
        },
      ],
    });

    // Signed by the test domain, with the report's own headers under the signature.
    const resolver = new nodeDns.Resolver();
    resolver.setServers([dns.address]);
    const verified = await dkimVerify(mail.raw, {
      resolver: (name: string, type: string) =>
        type === 'TXT' ? resolver.resolveTxt(name) : resolver.resolve(name, type),
    } as Parameters<typeof dkimVerify>[1]);
    const sig = verified.results[0] as unknown as {
      status: { result: string };
      signingDomain: string;
      signingHeaders: { keys: string };
    };
    expect(sig.status.result).toBe('pass');
    expect(sig.signingDomain).toBe(TEST_DOMAIN);
    expect(sig.signingHeaders.keys.toLowerCase()).toContain('tls-report-domain');

    // The HTTPS report was refused: tried, not marked sent.
    const posts = () => collector.to('collector.example').filter((r) => r.path === `/v1/${kind.name}`);
    expect(posts()).toHaveLength(1);
    const sends = await env.tlsReportSends('2026-01-10');
    expect(sends.find((s) => s.policy_domain === postDomain)).toMatchObject({ attempts: 1, sent_at: null });
    // A domain without a TLSRPT record is settled without a report.
    expect(sends.find((s) => s.policy_domain === silentDomain)).toMatchObject({ rua: '' });

    // Next run: the POST goes through; the mail is not sent again.
    collector.answer('collector.example', { status: 201 });
    clock.advance(DEFAULT_REPORTER_OPTIONS.intervalMs);
    expect(await reporter().tick()).toBe(true);
    expect(posts()).toHaveLength(2);
    const post = posts()[1]!;
    expect(post.method).toBe('POST');
    expect(post.headers['content-type']).toBe('application/tlsrpt+gzip');
    const posted = JSON.parse(gunzipSync(post.body).toString('utf8')) as TlsRptReport;
    expect(posted.policies).toEqual([
      {
        policy: { 'policy-type': 'no-policy-found', 'policy-domain': postDomain },
        summary: { 'total-successful-session-count': 0, 'total-failure-session-count': 1 },
        'failure-details': [
          {
            'result-type': 'starttls-not-supported',
            'receiving-mx-hostname': 'mx.post.example',
            'receiving-ip': '192.0.2.20',
            'failed-session-count': 1,
          },
        ],
      },
    ]);
    expect(sink.for(rua)).toHaveLength(1);
    const after = await env.tlsReportSends('2026-01-10');
    expect(after.find((s) => s.policy_domain === postDomain)).toMatchObject({
      attempts: 2,
      sent_at: expect.any(Number),
    });

    // A run after that sends nothing more.
    clock.advance(DEFAULT_REPORTER_OPTIONS.intervalMs);
    expect(await reporter().tick()).toBe(true);
    expect(posts()).toHaveLength(2);
    expect(sink.for(rua)).toHaveLength(1);

    // Past the retention, the counts go.
    clock.advance((DEFAULT_REPORTER_OPTIONS.keepDays + 1) * 86_400_000);
    expect(await reporter().tick()).toBe(true);
    expect(await env.tlsReportDomains('2026-01-10')).toEqual([]);
  });
});
