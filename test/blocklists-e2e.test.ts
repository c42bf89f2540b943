// Blocklist monitoring end to end: a DNS server on loopback serves a test address zone that lists one
// of the two sending addresses and a test names zone that lists the test domain. The check runs in a
// started service; the real `txmail status` shows the listings and exits 1, /metrics has the gauge, the
// operator's mail is queued and delivered, and mail leaves only from the address still clean, until
// the listings end.
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlocklistMonitor } from '../src/blocklists/monitor.js';
import { databaseKinds } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { runCommand } from './helpers/command.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';

describe.each(databaseKinds)('blocklist monitoring on $name', (kind) => {
  const mail = new MailFixture({ domains: ['ops.example', 'pool.example'] });
  const { dns, sink } = mail;
  let env: TestEnv;
  let monitor: BlocklistMonitor;
  let tenant: Tenant;
  let settings: Record<string, string>;

  beforeAll(async () => {
    await mail.start();
    dns.add('2.0.0.127.bl.test', 'A', '127.0.0.2');
    dns.add('2.0.0.127.bl.test', 'TXT', 'Listed for tests, see https://bl.test/127.0.0.2');
    dns.add('test.mta.txmail.test.dbl.test', 'A', '127.0.1.2');
    settings = {
      ...mail.env,
      // All of 127/8 is loopback on Linux: two local addresses to send from.
      TXMAIL_SOURCE_IPS: '127.0.0.1, 127.0.0.2',
      TXMAIL_DNSBL_ZONES: 'bl.test, dbl.test:names',
      TXMAIL_DNSBL_INTERVAL: '1s',
      TXMAIL_OPERATOR_EMAIL: 'ops@ops.example',
    };
    env = await startTestEnv(kind, { env: settings });
    tenant = await createTenant(env.services, { domain: 'acme.example' });
    await env.services.startWorker({ pollMs: 50 });
    monitor = env.services.startBlocklistMonitor({ pollMs: 50 });
  });
  afterAll(async () => {
    await env.close();
    await mail.stop();
  });

  const status = (...extra: string[]) =>
    runCommand(['status', ...extra], {
      ...settings,
      TXMAIL_DATABASE_URL: env.database.url,
      TXMAIL_HOSTNAME: 'mta.txmail.test',
      TXMAIL_SECRET_KEY: 'k'.repeat(64),
      TXMAIL_LOG_LEVEL: 'silent',
    });

  const sendFour = async (tag: string): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await env.app.inject({
        method: 'POST',
        url: '/api/email/send',
        headers: { 'x-api-key': tenant.apiKey },
        payload: { ...validSend, to: `${tag}${i}@pool.example` },
      });
      expect(res.statusCode).toBe(200);
      ids.push((res.json() as { id: string }).id);
    }
    return ids;
  };

  const sourcesOf = async (ids: string[]): Promise<string[]> =>
    until('attempts recorded', async () => {
      const rows = (await env.allAttempts()).filter((r) => ids.includes(r.message_id));
      return rows.length === ids.length ? rows.map((r) => r.source_ip ?? '') : undefined;
    });

  const operatorMail = (subject: RegExp) =>
    until(`the operator's mail "${subject.source}"`, async () => {
      for (const r of sink.received.filter((m) => m.to.includes('ops@ops.example'))) {
        const parsed = await simpleParser(r.raw);
        if (subject.test(parsed.subject ?? '')) return { received: r, parsed };
      }
      return undefined;
    });

  it('finds the listings, shows them, tells the operator and sends from the clean address', async () => {
    await until('the first check', async () => (monitor.runs >= 1 ? true : undefined));

    const text = await status();
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('Blocklists  (!)');
    expect(text.stdout).toMatch(
      /LISTED: 127\.0\.0\.2 on bl\.test since \S+ \(answer 127\.0\.0\.2\): Listed for tests, see https:\/\/bl\.test\/127\.0\.0\.2/,
    );
    expect(text.stdout).toMatch(
      /LISTED: test\.mta\.txmail\.test on dbl\.test since \S+ \(answer 127\.0\.1\.2\)/,
    );
    expect(text.stdout).toContain('mail leaves only from 127.0.0.1 while 127.0.0.2 is listed');
    const json = JSON.parse((await status('--json')).stdout) as {
      alert: boolean;
      blocklists: { listed: { target: string; zone: string }[]; sources_in_use: string[] };
    };
    expect(json.alert).toBe(true);
    expect(json.blocklists.listed.map((l) => `${l.target} ${l.zone}`)).toEqual([
      '127.0.0.2 bl.test',
      'test.mta.txmail.test dbl.test',
    ]);
    expect(json.blocklists.sources_in_use).toEqual(['127.0.0.1']);

    const metrics = (await env.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('txmail_blocklist_listed{target="127.0.0.2",zone="bl.test"} 1');
    expect(metrics).toContain('txmail_blocklist_listed{target="127.0.0.1",zone="bl.test"} 0');
    expect(metrics).toContain('txmail_blocklist_listed{target="test.mta.txmail.test",zone="dbl.test"} 1');
    expect(metrics).toContain('txmail_blocklist_listed{target="mta.txmail.test",zone="dbl.test"} 0');

    // The operator's mail: queued under an account of the operator's own, sent like any message.
    const mail = await operatorMail(/2 new blocklist listings/);
    expect(mail.parsed.from?.value[0]?.address).toBe('notifications@test.mta.txmail.test');
    expect(mail.parsed.html).toContain('Listed for tests, see https://bl.test/127.0.0.2');
    expect(mail.received.clientAddress).toBe('127.0.0.1');
    const operator = await env.accountByEmail('ops@ops.example');
    expect(operator).toMatchObject({ plan: 'scale', state: 'production', password_hash: null });

    // Customer mail leaves from the clean address only.
    expect(await sourcesOf(await sendFour('listed'))).toEqual(Array(4).fill('127.0.0.1'));
  });

  it('tells the operator when the listings end, and sends from both addresses again', async () => {
    dns.remove('2.0.0.127.bl.test');
    dns.remove('test.mta.txmail.test.dbl.test');
    await operatorMail(/2 blocklist listings ended/);
    const text = await status();
    expect(text.code).toBe(0);
    expect(text.stdout).not.toContain('LISTED');
    const metrics = (await env.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('txmail_blocklist_listed{target="127.0.0.2",zone="bl.test"} 0');
    expect(new Set(await sourcesOf(await sendFour('clean')))).toEqual(new Set(['127.0.0.1', '127.0.0.2']));
  });

  it("looks up customers' return-path domains: a listed send.<domain> shows like the others", async () => {
    // A domain still being verified is not looked up; a sendable one is, under the return-path label.
    const beta = await createTenant(env.services, { domain: 'beta.example' });
    await env.addDomain({
      id: 'dom_pending_gamma',
      account_id: beta.accountId,
      name: 'gamma.example',
      status: 'pending',
      created_at: Date.now(),
    });
    dns.add('send.beta.example.dbl.test', 'A', '127.0.1.2');
    dns.add('send.gamma.example.dbl.test', 'A', '127.0.1.2');
    const mail = await operatorMail(/send\.beta\.example is listed on dbl\.test/);
    expect(mail.parsed.html).toContain('send.beta.example');

    const text = await status();
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/LISTED: send\.beta\.example on dbl\.test since \S+ \(answer 127\.0\.1\.2\)/);
    expect(text.stdout).not.toContain('gamma');
    const json = JSON.parse((await status('--json')).stdout) as {
      blocklists: { listed: { target: string; zone: string; kind: string }[] };
    };
    expect(json.blocklists.listed).toEqual([
      expect.objectContaining({ target: 'send.beta.example', zone: 'dbl.test', kind: 'name' }),
    ]);
    const metrics = (await env.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain('txmail_blocklist_listed{target="send.beta.example",zone="dbl.test"} 1');
    expect(metrics).toContain('txmail_blocklist_listed{target="send.acme.example",zone="dbl.test"} 0');
    expect(metrics).not.toContain('gamma');
    // A name is not an address: mail still leaves from both.
    expect(new Set(await sourcesOf(await sendFour('named')))).toEqual(new Set(['127.0.0.1', '127.0.0.2']));
  });
});
