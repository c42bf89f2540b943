// The outside world of a delivering txmail, for tests: the real DNS test server (dns-server.ts) and a
// real SMTP sink (smtp-sink.ts) on loopback, each destination domain's MX answering 127.0.0.1, and the
// settings that point txmail at both. Every MX is reached at the sink's port (TXMAIL_MX_PORT), so
// loopback MX hosts must be allowed (TXMAIL_ALLOW_PRIVATE_NETWORKS).
//
//   const mail = new MailFixture({ domains: ['dest.example'] });   // in a describe block
//   beforeAll(async () => { await mail.start(); env = await startTestEnv(kind, { env: mail.env }); });
//   afterAll(() => mail.stop());
//
// or, inside one test: `const mail = await mailFixture({ domains: ['pool.example'] })`.
import { TestDnsServer } from './dns-server.js';
import { SmtpSink } from './smtp-sink.js';

export interface MailFixtureOptions {
  /** Destination domains, each with an MX (`mx.<domain>`, or `exchange`) whose A record is 127.0.0.1. */
  domains?: readonly string[];
  /** One MX host for every domain in `domains` (e.g. `mx.dest.example`) instead of one each. */
  exchange?: string;
  /** The sink's options: a chaos script, SMTP AUTH, a STARTTLS certificate. */
  sink?: ConstructorParameters<typeof SmtpSink>[0];
}

export class MailFixture {
  readonly dns = new TestDnsServer();
  readonly sink: SmtpSink;
  private started = false;

  constructor(private readonly options: MailFixtureOptions = {}) {
    this.sink = new SmtpSink(options.sink);
  }

  async start(): Promise<this> {
    await this.dns.start();
    await this.sink.start();
    this.started = true;
    for (const domain of this.options.domains ?? []) this.addDomain(domain, this.options.exchange);
    return this;
  }

  /** txmail's settings for this world: the DNS server, every MX at the sink's port, loopback MX hosts. */
  get env(): Record<string, string> {
    if (!this.started) throw new Error('mail fixture not started');
    return {
      TXMAIL_DNS_SERVERS: this.dns.address,
      TXMAIL_MX_PORT: String(this.sink.port),
      TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true',
    };
  }

  /** A destination domain: its MX (`exchange`, by default `mx.<domain>`) and the MX host's address. */
  addDomain(domain: string, exchange = `mx.${domain}`, address = '127.0.0.1'): this {
    this.dns.add(domain, 'MX', { preference: 10, exchange });
    this.dns.remove(exchange, 'A').add(exchange, 'A', address);
    return this;
  }

  /** Removes a destination domain's MX (the name then answers NXDOMAIN). */
  removeDomain(domain: string): this {
    this.dns.remove(domain);
    return this;
  }

  async stop(): Promise<void> {
    await this.sink.stop();
    await this.dns.stop();
  }
}

/** A started mail fixture (for a test that sets up its own world). */
export function mailFixture(options: MailFixtureOptions = {}): Promise<MailFixture> {
  return new MailFixture(options).start();
}
