// The domains API against a real DNS server on loopback: adding a domain, the records it answers,
// verification findings per record, plan limits and tenant isolation.
import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { generateDkimKey } from '../src/dkim/keys.js';
import { databaseKinds } from './helpers/databases.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { domainsApi, publish, recordOf, serviceDnsEnv, type DomainJson } from './helpers/domains.js';
import { createTenant, startTestEnv, type Tenant, type TestEnv } from './helpers/services.js';

describe.each(databaseKinds)('domains API on $name', (kind) => {
  let env: TestEnv;
  let api: ReturnType<typeof domainsApi>;
  const dns = new TestDnsServer();
  const clock = new ManualClock();

  beforeAll(async () => {
    await dns.start();
    env = await startTestEnv(kind, { clock, env: serviceDnsEnv(dns) });
    api = domainsApi(env.app);
  });
  afterAll(async () => {
    await env.close();
    await dns.stop();
  });

  const tenant = (plan: 'free' | 'pro' | 'scale' = 'pro') => createTenant(env.services, { plan });
  const add = async (t: Tenant, name: string) => {
    const res = await api(t, 'POST', '/api/domains', { name });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as DomainJson;
  };
  const verify = async (t: Tenant, d: DomainJson) => {
    const res = await api(t, 'POST', `/api/domains/${d.id}/verify`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as DomainJson;
  };
  const accountState = async (t: Tenant) => (await env.account(t.accountId))!.state;

  it('adds a domain with a new RSA-2048 key and answers the exact records to publish', async () => {
    const t = await tenant();
    const d = await add(t, 'Records.Example');
    expect(d).toMatchObject({
      name: 'records.example',
      status: 'pending',
      verified_at: null,
      last_check: null,
    });
    expect(d.fails_at).toBe(new Date(clock.now() + 72 * 3600_000).toISOString());

    const dkim = recordOf(d, 'dkim');
    expect(dkim).toMatchObject({ type: 'TXT', name: 'txm202611._domainkey.records.example', required: true });
    const p = /^v=DKIM1; k=rsa; p=([A-Za-z0-9+/=]+)$/.exec(dkim.value)![1]!;
    const key = createPublicKey({ key: Buffer.from(p, 'base64'), format: 'der', type: 'spki' });
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(recordOf(d, 'return_path_mx')).toMatchObject({
      type: 'MX',
      name: 'send.records.example',
      value: 'mx.txmail.example',
      priority: 10,
      required: true,
    });
    expect(recordOf(d, 'spf')).toMatchObject({
      type: 'TXT',
      name: 'send.records.example',
      value: 'v=spf1 include:spf.txmail.example ~all',
      required: true,
    });
    expect(recordOf(d, 'dmarc')).toMatchObject({
      type: 'TXT',
      name: '_dmarc.records.example',
      required: false,
      status: 'not_checked',
    });

    // The private key is stored sealed, never as PEM.
    const [row] = await env.dkimKeys('records.example', t.accountId);
    if (!row) throw new Error('no DKIM key stored for records.example');
    expect(row.private_key).toMatch(/^v1:/);
    expect(row.private_key).not.toContain('PRIVATE KEY');
    expect(row.public_key).toBe(p);

    const got = await api(t, 'GET', `/api/domains/${d.id}`);
    expect(got.json()).toEqual(d);
    const list = (await api(t, 'GET', '/api/domains')).json() as { data: { id: string; name: string }[] };
    expect(list.data.map((x) => x.name)).toEqual(['records.example']);
  });

  it('stores an internationalized name as punycode and refuses it again in either form', async () => {
    const t = await tenant();
    const d = await add(t, 'bücher.example');
    expect(d).toMatchObject({ name: 'xn--bcher-kva.example', unicode_name: 'bücher.example' });
    expect(recordOf(d, 'spf').name).toBe('send.xn--bcher-kva.example');
    for (const name of ['xn--bcher-kva.example', 'BÜCHER.example']) {
      const dup = await api(t, 'POST', '/api/domains', { name });
      expect(dup.statusCode).toBe(409);
      expect(dup.headers['content-type']).toMatch(/^text\/plain/);
      expect(dup.body).toBe('domain_exists: xn--bcher-kva.example is already a domain of this account');
    }
  });

  it.each([
    [{}, 'validation_error: "name" is required'],
    [{ name: 42 }, 'validation_error: "name" must be a string'],
    [{ name: 'acme.example', extra: 1 }, 'validation_error: unknown field "extra" in the body'],
    [{ name: 'not a domain' }, 'validation_error: "name" "not a domain" is not a domain name'],
    [{ name: '192.0.2.1' }, 'validation_error: "name" must be a domain name, not an IP address'],
    [
      { name: 'x.test.txmail.example' },
      'validation_error: "name" x.test.txmail.example is reserved for this service',
    ],
  ])('refuses %j', async (payload, body) => {
    const res = await api(await tenant(), 'POST', '/api/domains', payload);
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe(body);
  });

  it('verifies a domain whose records are all published, and the account leaves the sandbox', async () => {
    const t = await tenant();
    const d = await add(t, 'good.example');
    expect(await accountState(t)).toBe('sandbox');
    // DNS providers split long TXT values into several character-strings; they count as one value.
    const dkim = recordOf(d, 'dkim');
    dns.add(dkim.name, 'TXT', [dkim.value.slice(0, 100), dkim.value.slice(100, 300), dkim.value.slice(300)]);
    publish(dns, d, ['return_path_mx', 'spf']);
    dns.add('_dmarc.good.example', 'TXT', 'v=DMARC1; p=none; rua=mailto:dmarc@good.example');

    const v = await verify(t, d);
    expect(v.status, JSON.stringify(v.records)).toBe('verified');
    expect(v.verified_at).toBe(new Date(clock.now()).toISOString());
    expect(v.records.map((r) => [r.record, r.status])).toEqual([
      ['dkim', 'found'],
      ['return_path_mx', 'found'],
      ['spf', 'found'],
      ['dmarc', 'found'],
    ]);
    expect(recordOf(v, 'spf').seen).toEqual(['v=spf1 include:spf.txmail.example ~all']);
    expect(recordOf(v, 'return_path_mx').seen).toEqual(['10 mx.txmail.example']);
    expect(v.last_check).toMatchObject({ outcome: 'pass', spf_lookups: 1, dmarc: { policy: 'none' } });
    expect(v.last_check!.dmarc.guidance).toContain('p=quarantine');
    expect(await accountState(t)).toBe('production');
    expect(await env.services.verifiedDomains.verifiedDomains(t.accountId)).toEqual(['good.example']);
    // The findings are stored, not recomputed.
    expect((await api(t, 'GET', `/api/domains/${d.id}`)).json()).toEqual(v);
  });

  it('reports a wrong DKIM key with what it expected and what it saw', async () => {
    const t = await tenant();
    const d = await add(t, 'wrongkey.example');
    publish(dns, d, ['return_path_mx', 'spf']);
    const other = `v=DKIM1; k=rsa; p=${(await generateDkimKey()).publicKey}`;
    dns.add(recordOf(d, 'dkim').name, 'TXT', other);

    const v = await verify(t, d);
    expect(v.status).toBe('pending');
    expect(recordOf(v, 'dkim')).toMatchObject({
      status: 'wrong',
      value: recordOf(d, 'dkim').value,
      seen: [other],
      problems: ['p= is a different public key'],
    });
    expect(recordOf(v, 'spf').status).toBe('found');
    expect(v.last_check!.outcome).toBe('fail');
    expect(await accountState(t)).toBe('sandbox');
  });

  it('reports another record beside the DKIM key as wrong: receivers may read either', async () => {
    const t = await tenant();
    const d = await add(t, 'twokeys.example');
    publish(dns, d);
    dns.add(recordOf(d, 'dkim').name, 'TXT', 'v=DKIM1; k=rsa; p=OLDKEY');
    const v = await verify(t, d);
    expect(v.status).toBe('pending');
    expect(recordOf(v, 'dkim').status).toBe('wrong');
    expect(recordOf(v, 'dkim').seen).toHaveLength(2);
    expect(recordOf(v, 'dkim').problems[0]).toMatch(
      /^2 TXT records at txm202611\._domainkey\.twokeys\.example/,
    );
  });

  it('reports a missing SPF record and a missing return-path MX', async () => {
    const t = await tenant();
    const d = await add(t, 'nospf.example');
    publish(dns, d, ['dkim']);
    dns.add('send.nospf.example', 'TXT', 'google-site-verification=abc');
    const v = await verify(t, d);
    expect(v.status).toBe('pending');
    expect(recordOf(v, 'dkim').status).toBe('found');
    expect(recordOf(v, 'spf')).toMatchObject({ status: 'missing', seen: ['google-site-verification=abc'] });
    expect(recordOf(v, 'return_path_mx')).toMatchObject({ status: 'missing', seen: [] });
  });

  it('reports an MX pointing elsewhere as wrong', async () => {
    const t = await tenant();
    const d = await add(t, 'othermx.example');
    publish(dns, d, ['dkim', 'spf']);
    dns.add('send.othermx.example', 'MX', { preference: 10, exchange: 'mx.elsewhere.example' });
    const v = await verify(t, d);
    expect(recordOf(v, 'return_path_mx')).toMatchObject({
      status: 'wrong',
      seen: ['10 mx.elsewhere.example'],
      problems: ['no MX record points at mx.txmail.example'],
    });
  });

  it('accepts the include merged into an existing SPF record, in any case and with a trailing dot', async () => {
    const t = await tenant();
    const d = await add(t, 'merged.example');
    publish(dns, d, ['dkim', 'return_path_mx']);
    dns.add('send.merged.example', 'TXT', 'v=spf1 ip4:192.0.2.0/24 +include:SPF.TXMAIL.example. -all');
    const v = await verify(t, d);
    expect(recordOf(v, 'spf').status).toBe('found');
    expect(v.status).toBe('verified');
  });

  it('reports two SPF records as wrong (RFC 7208 §4.5)', async () => {
    const t = await tenant();
    const d = await add(t, 'twospf.example');
    publish(dns, d);
    dns.add('send.twospf.example', 'TXT', 'v=spf1 include:other.example ~all');
    const v = await verify(t, d);
    expect(v.status).toBe('pending');
    const spf = recordOf(v, 'spf');
    expect(spf.status).toBe('wrong');
    expect(spf.seen).toHaveLength(2);
    expect(spf.problems[0]).toMatch(/^2 SPF records at send\.twospf\.example; there must be exactly one/);
  });

  it('reports an SPF record needing more than 10 DNS look-ups as wrong', async () => {
    const t = await tenant();
    const d = await add(t, 'manylookups.example');
    publish(dns, d, ['dkim', 'return_path_mx']);
    dns.add(
      'many.example',
      'TXT',
      `v=spf1 ${Array.from({ length: 9 }, (_, i) => `a:h${i}.example`).join(' ')} -all`,
    );
    dns.add('send.manylookups.example', 'TXT', 'v=spf1 include:spf.txmail.example include:many.example ~all');
    const v = await verify(t, d);
    expect(recordOf(v, 'spf')).toMatchObject({ status: 'wrong' });
    expect(recordOf(v, 'spf').problems[0]).toMatch(/more than 10 DNS look-ups/);
    expect(v.last_check!.spf_lookups).toBe(11);

    // Ten look-ups are allowed.
    dns.remove('many.example');
    dns.add(
      'many.example',
      'TXT',
      `v=spf1 ${Array.from({ length: 8 }, (_, i) => `a:h${i}.example`).join(' ')} -all`,
    );
    const ok = await verify(t, d);
    expect(ok.status).toBe('verified');
    expect(ok.last_check!.spf_lookups).toBe(10);
  });

  it('verifies without DMARC, reporting its absence with guidance, and reports a policy once published', async () => {
    const t = await tenant();
    const d = await add(t, 'nodmarc.example');
    publish(dns, d);
    const v = await verify(t, d);
    expect(v.status).toBe('verified');
    expect(recordOf(v, 'dmarc')).toMatchObject({ status: 'missing', required: false });
    expect(v.last_check!.dmarc.policy).toBeNull();
    expect(v.last_check!.dmarc.guidance).toContain(
      'v=DMARC1; p=none; rua=mailto:dmarc-reports@nodmarc.example',
    );

    dns.add('_dmarc.nodmarc.example', 'TXT', 'v=DMARC1; p=reject; aspf=s');
    const again = await verify(t, d);
    expect(recordOf(again, 'dmarc')).toMatchObject({
      status: 'found',
      seen: ['v=DMARC1; p=reject; aspf=s'],
      warnings: [
        'aspf=s: SPF never aligns for mail sent through txmail (its envelope domain is the return-path subdomain); DMARC still passes through DKIM',
      ],
    });
    expect(again.last_check!.dmarc.policy).toBe('reject');
  });

  it('warns when SPF does not pass from a sending address, as a receiver would evaluate it', async () => {
    // A second instance sending from an address the SPF include domain does not list.
    const other = await startTestEnv(kind, {
      env: { ...serviceDnsEnv(dns), TXMAIL_SOURCE_IPS: '127.0.0.1,127.0.0.9' },
    });
    try {
      const t = await createTenant(other.services);
      const otherApi = domainsApi(other.app);
      const d = (await otherApi(t, 'POST', '/api/domains', { name: 'probe.example' })).json() as DomainJson;
      publish(dns, d);
      const v = (await otherApi(t, 'POST', `/api/domains/${d.id}/verify`)).json() as DomainJson;
      expect(v.status).toBe('verified');
      expect(recordOf(v, 'spf').warnings).toEqual([
        "SPF evaluates to softfail for mail sent from 127.0.0.9: the service's SPF include domain does not authorize it (tell the operator)",
      ]);
    } finally {
      await other.close();
    }
  });

  it('reports a DNS failure as an error, not as a missing record, and changes nothing', async () => {
    const t = await tenant();
    const d = await add(t, 'servfail.example');
    publish(dns, d, ['return_path_mx', 'spf']);
    dns.breakName(recordOf(d, 'dkim').name);
    const v = await verify(t, d);
    expect(v.status).toBe('pending');
    expect(recordOf(v, 'dkim').status).toBe('error');
    expect(recordOf(v, 'dkim').problems[0]).toMatch(/failed/);
    expect(v.last_check!.outcome).toBe('inconclusive');
  });

  it('gives a domain set verified before verification existed a key when its owner verifies it', async () => {
    const t = await createTenant(env.services, { domain: 'legacy.example', dkim: false });
    const [legacy] = ((await api(t, 'GET', '/api/domains')).json() as { data: DomainJson[] }).data;
    expect(legacy).toMatchObject({ name: 'legacy.example', status: 'verified' });
    const before = (await api(t, 'GET', `/api/domains/${legacy!.id}`)).json() as DomainJson;
    expect(before.records.map((r) => r.record)).toEqual(['return_path_mx', 'spf', 'dmarc']);

    // Its records are not published: verifying starts the grace period, and shows the key to publish.
    const v = await verify(t, legacy!);
    expect(v.status).toBe('temporary_failure');
    expect(recordOf(v, 'dkim')).toMatchObject({
      status: 'missing',
      name: 'txm202611._domainkey.legacy.example',
    });
    publish(dns, v);
    expect((await verify(t, v)).status).toBe('verified');
  });

  it('keeps tenants apart: another account cannot see, verify or delete a domain', async () => {
    const owner = await tenant();
    const stranger = await tenant();
    const d = await add(owner, 'private.example');
    for (const [method, url] of [
      ['GET', `/api/domains/${d.id}`],
      ['POST', `/api/domains/${d.id}/verify`],
      ['DELETE', `/api/domains/${d.id}`],
    ] as const) {
      const res = await api(stranger, method, url);
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(`not_found: no domain with id "${d.id}" in this account`);
    }
    expect(((await api(stranger, 'GET', '/api/domains')).json() as { data: unknown[] }).data).toEqual([]);
    expect((await api(owner, 'GET', `/api/domains/${d.id}`)).statusCode).toBe(200);
    expect((await api(owner, 'GET', '/api/domains/not-an-id')).statusCode).toBe(404);

    // Each account proves ownership with its own key: the same name gets another selector.
    const theirs = await add(stranger, 'private.example');
    expect(recordOf(theirs, 'dkim').name).not.toBe(recordOf(d, 'dkim').name);
    expect(recordOf(theirs, 'dkim').name).toMatch(/^txm202611[a-z0-9]{1,4}\._domainkey\.private\.example$/);
  });

  it('takes verify and delete with an empty JSON body, as many HTTP clients send them', async () => {
    const t = await tenant();
    const d = await add(t, 'emptybody.example');
    for (const [method, url] of [
      ['POST', `/api/domains/${d.id}/verify`],
      ['DELETE', `/api/domains/${d.id}`],
    ] as const) {
      const res = await env.app.inject({
        method,
        url,
        headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('answers random input without a 5xx', async () => {
    const t = await tenant('scale');
    const alphabet = [
      'a',
      'Z',
      '0',
      '-',
      '.',
      '_',
      'ü',
      '中',
      '\u0000',
      ' ',
      '%',
      'xn--',
      '@',
      '/',
      '\u200d',
      '..',
    ];
    const pick = () => alphabet[Math.floor(Math.random() * alphabet.length)]!;
    for (let i = 0; i < 300; i++) {
      const name =
        Array.from({ length: 1 + Math.floor(Math.random() * 30) }, pick).join('') + (i % 2 ? '.example' : '');
      const res = await api(t, 'POST', '/api/domains', { name });
      expect(res.statusCode, `${JSON.stringify(name)}: ${res.body}`).toBeLessThan(500);
      expect(res.statusCode === 201 || /^[a-z_]+: .+$/.test(res.body)).toBe(true);
    }
    for (const payload of ['{', '[]', '"x"', 'null', JSON.stringify({ name: 'x'.repeat(100_000) })]) {
      const res = await env.app.inject({
        method: 'POST',
        url: '/api/domains',
        headers: { 'x-api-key': t.apiKey, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload.slice(0, 20)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    for (const id of ['', '%00', '..', 'x'.repeat(5000), '00000000-0000-0000-0000-000000000000']) {
      for (const [method, suffix] of [
        ['GET', ''],
        ['POST', '/verify'],
        ['DELETE', ''],
      ] as const) {
        const res = await api(t, method, `/api/domains/${id}${suffix}`);
        expect(res.statusCode, `${method} ${id.slice(0, 20)}${suffix}`).toBeLessThan(500);
      }
    }
  });

  it('needs an API key', async () => {
    const res = await env.app.inject({ method: 'GET', url: '/api/domains' });
    expect(res.statusCode).toBe(401);
  });

  it.each([
    ['free', 1, 'plan_limit: the free plan allows 1 domain; the pro plan allows 3'],
    ['pro', 3, 'plan_limit: the pro plan allows 3 domains; the scale plan allows 10'],
    ['scale', 10, 'plan_limit: the scale plan allows 10 domains; delete one to add another'],
  ] as const)('limits the %s plan to %i domains', async (plan, limit, message) => {
    const t = await tenant(plan);
    for (let i = 0; i < limit; i++) await add(t, `d${i}.${plan}-limit.example`);
    const res = await api(t, 'POST', '/api/domains', { name: `more.${plan}-limit.example` });
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe(message);
    // Deleting one makes room again.
    const first = ((await api(t, 'GET', '/api/domains')).json() as { data: { id: string }[] }).data[0]!;
    expect((await api(t, 'DELETE', `/api/domains/${first.id}`)).statusCode).toBe(200);
    await add(t, `more.${plan}-limit.example`);
  });

  it('refuses concurrent adds beyond the plan', async () => {
    const t = await tenant('free');
    const results = await Promise.all(
      ['a', 'b', 'c'].map((n) => api(t, 'POST', '/api/domains', { name: `${n}.race.example` })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 403, 403]);
  });

  it('deletes a domain with its key, and the account returns to the sandbox when none can send', async () => {
    const t = await tenant();
    const d = await add(t, 'gone.example');
    publish(dns, d);
    expect((await verify(t, d)).status).toBe('verified');
    expect(await accountState(t)).toBe('production');

    const del = await api(t, 'DELETE', `/api/domains/${d.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ id: d.id, deleted: true });
    expect((await api(t, 'GET', `/api/domains/${d.id}`)).statusCode).toBe(404);
    expect((await api(t, 'DELETE', `/api/domains/${d.id}`)).statusCode).toBe(404);
    expect(await accountState(t)).toBe('sandbox');
    expect(await env.services.verifiedDomains.verifiedDomains(t.accountId)).toEqual([]);
    const keys = await env.services.db.kysely
      .selectFrom('dkim_keys')
      .select('id')
      .where('account_id', '=', t.accountId)
      .execute();
    expect(keys).toEqual([]);
  });
});
