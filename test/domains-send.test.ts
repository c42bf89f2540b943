// The "done when": a new account adds a domain, publishes what the API returns on a real DNS
// server, verifies it and sends from it, and everything is refused with the right code before that.
// The delivered message passes DKIM and SPF against the published records.
import { promises as dnsPromises } from 'node:dns';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { spf } from 'mailauth/lib/spf/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { domainsApi, publish, recordOf, serviceDnsEnv, type DomainJson } from './helpers/domains.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { until } from './helpers/wait.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

describe.each(databaseKinds)('sending from a verified domain on $name', (kind) => {
  let env: TestEnv;
  let api: ReturnType<typeof domainsApi>;
  let tenant: Tenant;
  const mail = new MailFixture({ domains: ['dest.example'] });
  const { dns, sink } = mail;

  beforeAll(async () => {
    await mail.start();
    env = await startTestEnv(kind, { env: { ...mail.env, ...serviceDnsEnv(dns) } });
    api = domainsApi(env.app);
    tenant = await createTenant(env.services, { plan: 'pro' });
    await env.services.startWorker({ pollMs: 50 });
  });
  afterAll(async () => {
    await env.close();
    await mail.stop();
  });

  const send = (from: string, url = '/api/email/send') =>
    api(tenant, 'POST', url, { ...validSend, from: `Acme <${from}>`, to: 'jane@dest.example' });

  it('refuses every send until a domain verifies, then sends signed mail from that domain only', async () => {
    // A new account: sandbox-locked.
    let res = await send('noreply@brand.example');
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe(
      'account_sandboxed: this account has no verified domain yet; verify one in the dashboard (test sends and the guided test work meanwhile)',
    );
    res = await send('noreply@brand.example', '/api/email/send/test');
    expect(res.statusCode).toBe(200);
    expect((res.json() as { warnings: string[] }).warnings.map((w) => w.split(':')[0])).toEqual([
      'account_sandboxed',
      'domain_not_verified',
    ]);

    // Added but not published: still refused.
    const added = await api(tenant, 'POST', '/api/domains', { name: 'brand.example' });
    const d = added.json() as DomainJson;
    expect(((await api(tenant, 'POST', `/api/domains/${d.id}/verify`)).json() as DomainJson).status).toBe(
      'pending',
    );
    expect((await send('noreply@brand.example')).statusCode).toBe(403);

    // Published exactly as answered, and verified.
    publish(dns, d);
    expect(((await api(tenant, 'POST', `/api/domains/${d.id}/verify`)).json() as DomainJson).status).toBe(
      'verified',
    );
    res = await send('noreply@brand.example');
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { id: string }).id;

    // Another domain of the same account is still refused; the test route now warns only about it.
    const other = await send('noreply@unverified.example');
    expect(other.statusCode).toBe(403);
    expect(other.body).toBe(
      'domain_not_verified: "unverified.example" is not a verified domain of this account; send from a verified domain',
    );
    const rehearsal = await send('noreply@unverified.example', '/api/email/send/test');
    expect((rehearsal.json() as { warnings: string[] }).warnings.map((w) => w.split(':')[0])).toEqual([
      'domain_not_verified',
    ]);

    // Delivered with the envelope on send.<domain>, signed with the domain's own key.
    const received = await until('the message at the sink', async () =>
      sink.received.find((r) => r.raw.toString().includes(id)),
    );
    expect(received.from).toMatch(/^b\+[0-9a-f]+@send\.brand\.example$/);
    const resolver = new dnsPromises.Resolver();
    resolver.setServers([dns.address]);
    const resolve = (name: string, type: string) =>
      type === 'TXT' ? resolver.resolveTxt(name) : resolver.resolve(name, type);
    const dkim = await dkimVerify(received.raw, { resolver: resolve } as Parameters<typeof dkimVerify>[1]);
    const sig = dkim.results[0] as unknown as {
      status: { result: string };
      signingDomain: string;
      selector: string;
    };
    expect(sig.status.result).toBe('pass');
    expect(sig.signingDomain).toBe('brand.example');
    expect(`${sig.selector}._domainkey.brand.example`).toBe(recordOf(d, 'dkim').name);

    // SPF for the envelope domain passes from the sending address through the published include.
    const spfResult = await spf({
      sender: received.from,
      ip: '127.0.0.1',
      helo: 'mta.txmail.test',
      mta: 'mx.dest.example',
      resolver: resolve,
    } as Parameters<typeof spf>[0]);
    expect(spfResult.status.result).toBe('pass');
  });
});
