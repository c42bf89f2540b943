// The warnings of a domain check (last_check.warnings) against a real DNS server on loopback: a From
// domain that cannot receive mail, and a missing DMARC record. Neither stops verification (SPF + DKIM).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { domainsApi, publish, serviceDnsEnv, type DomainJson } from './helpers/domains.js';
import { createTenant, startTestEnv, type Tenant, type TestEnv } from './helpers/services.js';

interface Warning {
  code: string;
  severity: string;
  message: string;
  suggested?: { type: string; name: string; value: string };
}
type Checked = DomainJson & { last_check: { warnings: Warning[] } };

describe.each(databaseKinds)('domain check warnings on $name', (kind) => {
  let env: TestEnv;
  let api: ReturnType<typeof domainsApi>;
  const dns = new TestDnsServer();

  beforeAll(async () => {
    await dns.start();
    env = await startTestEnv(kind, { env: serviceDnsEnv(dns) });
    api = domainsApi(env.app);
  });
  afterAll(async () => {
    await env.close();
    await dns.stop();
  });

  /** A domain of a new tenant with its required records published, checked once: what GET then shows. */
  const checked = async (
    name: string,
    zone: (dns: TestDnsServer) => void = () => {},
    t?: Tenant,
  ): Promise<Checked> => {
    t ??= await createTenant(env.services);
    const created = await api(t, 'POST', '/api/domains', { name });
    expect(created.statusCode, created.body).toBe(201);
    const d = created.json() as DomainJson;
    publish(dns, d);
    zone(dns);
    const v = await api(t, 'POST', `/api/domains/${d.id}/verify`);
    expect(v.statusCode, v.body).toBe(200);
    // What the check found is stored: GET answers it again.
    const got = (await api(t, 'GET', `/api/domains/${d.id}`)).json() as Checked;
    expect(got.last_check.warnings).toEqual((v.json() as Checked).last_check.warnings);
    return got;
  };
  const codes = (d: Checked) => d.last_check.warnings.map((w) => w.code);

  it('warns when the From domain has neither MX nor A/AAAA, and when it has no DMARC record, yet verifies', async () => {
    const d = await checked('nohost.example');
    expect(d.status).toBe('verified');
    expect(d.last_check.outcome).toBe('pass');
    expect(d.last_check.warnings).toEqual([
      {
        code: 'no_mail_host',
        severity: 'warning',
        message:
          'nohost.example has no MX record and no A or AAAA record, so it cannot receive mail: receivers penalise mail from a domain that cannot receive mail. Publish an MX record for nohost.example.',
      },
      {
        code: 'dmarc_missing',
        severity: 'warning',
        message:
          'No DMARC record at _dmarc.nohost.example: required by Gmail and Yahoo for bulk senders. Publish "v=DMARC1; p=none; rua=mailto:dmarc-reports@nohost.example" to start: it only collects reports.',
        suggested: {
          type: 'TXT',
          name: '_dmarc.nohost.example',
          value: 'v=DMARC1; p=none; rua=mailto:dmarc-reports@nohost.example',
        },
      },
    ]);
    expect(d.last_check.dmarc.guidance).toContain('required by Gmail and Yahoo for bulk senders');
  });

  it('warns as well when the name exists without MX, A or AAAA records (NODATA)', async () => {
    const d = await checked('txtonly.example', (z) => z.add('txtonly.example', 'TXT', 'v=spf1 -all'));
    expect(codes(d)).toEqual(['no_mail_host', 'dmarc_missing']);
  });

  it('does not warn for a domain with an MX record and a DMARC record', async () => {
    const d = await checked('mx.example', (z) => {
      z.add('mx.example', 'MX', { preference: 10, exchange: 'mail.mx.example' });
      z.add('_dmarc.mx.example', 'TXT', 'v=DMARC1; p=none');
    });
    expect(d.last_check.warnings).toEqual([]);
  });

  it('takes an A record or an AAAA record as a mail host (the implicit MX of RFC 5321 §5.1)', async () => {
    const a = await checked('aonly.example', (z) => z.add('aonly.example', 'A', '192.0.2.1'));
    expect(codes(a)).toEqual(['dmarc_missing']);
    const aaaa = await checked('aaaaonly.example', (z) => z.add('aaaaonly.example', 'AAAA', '2001:db8::1'));
    expect(codes(aaaa)).toEqual(['dmarc_missing']);
  });

  it('warns for a null MX (RFC 7505) even with an A record', async () => {
    const d = await checked('nullmx.example', (z) => {
      z.add('nullmx.example', 'MX', { preference: 0, exchange: '.' });
      z.add('nullmx.example', 'A', '192.0.2.1');
    });
    expect(d.last_check.warnings[0]).toMatchObject({ code: 'null_mx', severity: 'warning' });
    expect(d.last_check.warnings[0]!.message).toContain('nullmx.example publishes a null MX record');
  });

  it('does not warn on a temporary DNS failure, of the From domain or of its DMARC record', async () => {
    const d = await checked('servfail.example', (z) => z.breakName('servfail.example'));
    expect(d.status).toBe('verified');
    expect(codes(d)).toEqual(['dmarc_missing']);

    const dmarc = await checked('dmarcfail.example', (z) => {
      z.add('dmarcfail.example', 'MX', { preference: 10, exchange: 'mail.dmarcfail.example' });
      z.breakName('_dmarc.dmarcfail.example');
    });
    expect(dmarc.records.find((r) => r.record === 'dmarc')!.status).toBe('error');
    expect(dmarc.last_check.warnings).toEqual([]);
  });

  it('answers no warnings for a check stored before warnings existed', async () => {
    const t = await createTenant(env.services);
    const d = await checked('stored.example', () => {}, t);
    const row = (await env.domainsOf(t.accountId)).find((r) => r.id === d.id)!;
    const { warnings, ...older } = JSON.parse(row.findings!) as { warnings: unknown[] };
    expect(warnings).toHaveLength(2);
    await env.updateDomain(t.accountId, row.name, { findings: JSON.stringify(older) });
    const got = (await api(t, 'GET', `/api/domains/${d.id}`)).json() as Checked;
    expect(got.last_check).toMatchObject({ outcome: 'pass', warnings: [] });
  });
});
