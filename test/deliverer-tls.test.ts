// The Deliverer's side of TLS policy (deliver-message.ts with the real SMTP transport, against a real
// SMTP server with a certificate of a test CA): the requirement from the sending domain's `tls` and the
// recipient domain's MTA-STS policy, the MX hosts an enforcing policy lists, what TLS reporting is told,
// a relay (no MTA-STS; the domain's `required` applies to it), and pooled connections that never carry
// a required delivery over a session that did not verify (ARCHITECTURE.md, "TLS policy").
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DomainTls } from '../src/db/schema.js';
import type { DkimKeys } from '../src/dkim/dkim-keys.js';
import type { DnsResolver } from '../src/dns/resolver.js';
import { Deliverer } from '../src/delivery/deliver-message.js';
import { DestinationLimits } from '../src/delivery/destination-limits.js';
import { SmtpTransport } from '../src/delivery/smtp-transport.js';
import type { SourceIpPool } from '../src/delivery/source-ip-pool.js';
import type { TlsRequirement, TlsSessionReport } from '../src/delivery/tls-policy.js';
import type { AttemptResult, DeliveryTarget } from '../src/delivery/transport.js';
import { sealedHtmlBox } from '../src/messages/sealed-html.js';
import { Verp } from '../src/delivery/verp.js';
import { claimedMessage } from './helpers/message-row.js';
import { SmtpSink } from './helpers/smtp-sink.js';
import { TestCa } from './helpers/test-ca.js';

const policy = (mode: 'enforce' | 'testing', mx: string[]): TlsRequirement => ({
  policy: mode === 'enforce' ? 'mta-sts' : 'mta-sts-testing',
  requireVerified: mode === 'enforce',
  sts: mode,
  mxPatterns: mx,
  policyDomain: 'dest.example',
  policyStrings: ['version: STSv1', `mode: ${mode}`, ...mx.map((m) => `mx: ${m}`), 'max_age: 86400'],
});
const ENFORCE = (mx: string[]) => policy('enforce', mx);
const TESTING = (mx: string[]) => policy('testing', mx);

describe('TLS policy in the Deliverer', () => {
  const ca = new TestCa();
  // Valid for the listed MX host and for the relay's address; every MX name below resolves to the
  // sink, so another name gets the same certificate, which does not name it.
  const sink = new SmtpSink({ tls: ca.issue(['mx1.dest.example', '127.0.0.1']) });
  let transport: SmtpTransport;
  let reports: { recipientDomain: string; requirement: TlsRequirement; sessions: TlsSessionReport[] }[];
  let policyAsked: string[];

  beforeAll(() => sink.start());
  afterAll(async () => {
    await sink.stop();
    ca.remove();
  });
  afterEach(() => transport.close());

  function deliverer(options: {
    mx: string[];
    domainTls?: DomainTls;
    mtaSts?: TlsRequirement;
    relay?: DeliveryTarget;
  }): Deliverer {
    transport = new SmtpTransport({ hostname: 'mta.txmail.test', ca: [ca.ca] });
    reports = [];
    policyAsked = [];
    const dns = {
      mx: async () => options.mx.map((exchange, i) => ({ exchange, priority: 10 * (i + 1) })),
      a: async () => ['127.0.0.1'],
      aaaa: async () => [],
    } as unknown as DnsResolver;
    return new Deliverer(
      {
        hostname: 'mta.txmail.test',
        testDomain: 'txmail.test',
        returnPathLabel: 'send',
        relay: options.relay,
        mxPort: sink.port,
        allowPrivateNetworks: true,
      },
      {
        dns,
        // The builder is replaced, so any key will do.
        dkim: { signingKey: async () => ({}) } as unknown as DkimKeys,
        verp: new Verp(Buffer.alloc(32, 1)),
        sealedHtml: sealedHtmlBox('test'),
        transport,
        builder: {
          build: async () => ({ bytes: Buffer.from('Subject: s\r\n\r\nhello\r\n'), gzipped: undefined }),
          close: async () => {},
        },
        limits: new DestinationLimits({ rules: {} }, () => Date.now()),
        sources: { take: () => ({ address: undefined }) } as unknown as SourceIpPool,
        verifiedDomains: async () => ['acme.example'],
        domainStatus: async () => 'verified',
        domainTls: async () => options.domainTls ?? 'opportunistic',
        tlsPolicy: async (domain) => {
          policyAsked.push(domain);
          return options.mtaSts;
        },
        tlsReports: { record: (r) => reports.push(r) },
        clock: { now: () => Date.now() },
      },
    );
  }

  async function attempt(d: Deliverer, to = 'jane@dest.example'): Promise<AttemptResult> {
    const outcome = await d.deliver(
      claimedMessage('acct', { to_email: to, to_domain: to.slice(to.lastIndexOf('@') + 1) }),
    );
    if (outcome.kind !== 'attempted') throw new Error(`expected an attempt, got ${JSON.stringify(outcome)}`);
    return outcome.result;
  }

  it('under MTA-STS enforce tries only the MX hosts the policy lists, and reports the session', async () => {
    const received = sink.received.length;
    const d = deliverer({ mx: ['mx.other.net', 'mx1.dest.example'], mtaSts: ENFORCE(['*.dest.example']) });
    const r = await attempt(d);
    expect(r).toMatchObject({ outcome: 'delivered', remoteHost: 'mx1.dest.example', tls: true });
    expect(r.tlsDetails).toMatchObject({ policy: 'mta-sts', certificate: 'valid' });
    expect(policyAsked).toEqual(['dest.example']);
    expect(sink.received.length).toBe(received + 1);
    // The unlisted host was never connected to: the one session is the listed host's.
    expect(reports).toEqual([
      {
        recipientDomain: 'dest.example',
        requirement: ENFORCE(['*.dest.example']),
        sourceIp: null,
        sessions: [{ mxHost: 'mx1.dest.example', receivingIp: '127.0.0.1', ok: true }],
      },
    ]);
  });

  it('under MTA-STS enforce defers without a connection when the policy lists no MX host', async () => {
    const connections = sink.connections;
    const d = deliverer({ mx: ['mx1.dest.example'], mtaSts: ENFORCE(['mx.elsewhere.example']) });
    const r = await attempt(d);
    expect(r).toMatchObject({
      outcome: 'deferred',
      category: 'network_error',
      reason: 'the MTA-STS policy of dest.example (enforce) does not list mx1.dest.example; not delivered',
    });
    expect(r.tlsDetails?.policy).toBe('mta-sts');
    expect(sink.connections).toBe(connections);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.sessions).toEqual([
      expect.objectContaining({ mxHost: 'mx1.dest.example', ok: false, failure: 'validation-failure' }),
    ]);
  });

  it('under MTA-STS enforce refuses a certificate that does not name the host, and tries the next', async () => {
    const d = deliverer({
      mx: ['mx2.dest.example', 'mx1.dest.example'],
      mtaSts: ENFORCE(['*.dest.example']),
    });
    const r = await attempt(d);
    expect(r).toMatchObject({ outcome: 'delivered', remoteHost: 'mx1.dest.example' });
    expect(reports[0]!.sessions).toEqual([
      expect.objectContaining({
        mxHost: 'mx2.dest.example',
        ok: false,
        failure: 'certificate-host-mismatch',
      }),
      { mxHost: 'mx1.dest.example', receivingIp: '127.0.0.1', ok: true },
    ]);
  });

  it('under MTA-STS testing delivers to an unlisted host and reports the failure', async () => {
    const d = deliverer({ mx: ['mx2.dest.example'], mtaSts: TESTING(['mx1.dest.example']) });
    const r = await attempt(d);
    expect(r).toMatchObject({ outcome: 'delivered', remoteHost: 'mx2.dest.example' });
    expect(r.tlsDetails).toMatchObject({ policy: 'mta-sts-testing', certificate: 'invalid' });
    expect(reports[0]!.sessions).toEqual([
      expect.objectContaining({ mxHost: 'mx2.dest.example', ok: false }),
    ]);
  });

  it("the sending domain's required applies with a relay; MTA-STS is not asked and nothing is reported", async () => {
    const relay: DeliveryTarget = { host: '127.0.0.1', address: '127.0.0.1', port: sink.port, secure: false };
    const d = deliverer({ mx: [], domainTls: 'required', mtaSts: ENFORCE(['nothing.example']), relay });
    const r = await attempt(d);
    expect(r).toMatchObject({ outcome: 'delivered', tls: true });
    expect(r.tlsDetails).toMatchObject({ policy: 'required', certificate: 'valid' });
    expect(policyAsked).toEqual([]);
    expect(reports).toEqual([]);
  });

  it('reports a pooled session once per policy domain, not once per message sent over it', async () => {
    const d = deliverer({ mx: ['mx1.dest.example'] });
    const details = [await attempt(d)];
    const connections = sink.connections;
    details.push(await attempt(d), await attempt(d));
    expect(sink.connections).toBe(connections); // one session for the three
    expect(reports.map((r) => r.recipientDomain)).toEqual(['dest.example']);
    expect(reports[0]!.sessions).toEqual([
      { mxHost: 'mx1.dest.example', receivingIp: '127.0.0.1', ok: true },
    ]);
    // The same session carries another domain's mail: that domain's report counts it once too.
    details.push(await attempt(d, 'joe@other.example'), await attempt(d, 'ann@other.example'));
    expect(sink.connections).toBe(connections);
    expect(reports.map((r) => r.recipientDomain)).toEqual(['dest.example', 'other.example']);
    // Every attempt still records the session's TLS.
    for (const r of details) {
      expect(r).toMatchObject({
        outcome: 'delivered',
        tlsDetails: { certificate: 'valid', version: 'TLSv1.3' },
      });
    }
  });

  it('never reuses a session whose certificate did not verify for a delivery that requires one', async () => {
    // mx2's certificate does not name it: fine opportunistically, and the session is pooled.
    const open = deliverer({ mx: ['mx2.dest.example'] });
    expect(await attempt(open)).toMatchObject({ outcome: 'delivered' });
    const connections = sink.connections;
    const again = await attempt(open);
    expect(again).toMatchObject({ outcome: 'delivered' });
    expect(sink.connections).toBe(connections); // reused

    // Same transport, a domain that requires TLS: a new session, judged and refused.
    const required = new Deliverer(
      (open as unknown as { settings: ConstructorParameters<typeof Deliverer>[0] }).settings,
      {
        ...(open as unknown as { deps: ConstructorParameters<typeof Deliverer>[1] }).deps,
        domainTls: async () => 'required',
      },
    );
    const r = await attempt(required);
    expect(r).toMatchObject({ outcome: 'deferred', tls: true });
    expect(r.reason).toMatch(
      /^TLS is required by the sending domain's policy: the certificate of mx2\.dest\.example is not valid for it: .*mx2\.dest\.example/,
    );
    expect(sink.connections).toBe(connections + 1);
  });
});
