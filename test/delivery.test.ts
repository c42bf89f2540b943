// Delivery end to end: the send route → the worker → a real SMTP server found through a real DNS server.
import { promises as dns } from 'node:dns';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { simpleParser } from 'mailparser';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../src/services.js';
import { dkimRecordName, dkimRecordValue } from '../src/dkim/keys.js';
import { databaseKinds } from './helpers/databases.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { MailFixture, mailFixture } from './helpers/mail-fixture.js';
import { SmtpSink } from './helpers/smtp-sink.js';
import { until } from './helpers/wait.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

interface Detail {
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  events: { type: string; data: Record<string, unknown> }[];
  delivery_attempts: {
    outcome: string;
    smtp_code: number | null;
    enhanced_code: string;
    reply: string;
    remote_host: string;
    remote_ip: string;
    tls: boolean;
  }[];
}

describe.each(databaseKinds)('delivery on $name', (kind) => {
  let env: TestEnv;
  let tenant: Tenant;
  const mail = new MailFixture({ domains: ['dest.example'] });
  const { dns: dnsServer, sink } = mail;

  beforeAll(async () => {
    await mail.start();
    env = await startTestEnv(kind, {
      env: { ...mail.env, TXMAIL_TEST_DOMAIN: 'test.txmail.example' },
    });
    tenant = await createTenant(env.services, { domain: 'acme.example' });
    const key = (await env.dkimKey('acme.example', tenant.accountId))!;
    dnsServer.add(dkimRecordName(key.selector, 'acme.example'), 'TXT', dkimRecordValue(key.public_key));
    // A poll interval far beyond every wait below: the worker only runs because a commit wakes it
    // (the transactional fast path).
    await env.services.startWorker({ pollMs: 10 * 60_000 });
  });
  afterAll(async () => {
    await env.close();
    await mail.stop();
  });

  const send = async (body: Partial<typeof validSend>) => {
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/email/send',
      headers: { 'x-api-key': tenant.apiKey },
      payload: { ...validSend, ...body },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { id: string }).id;
  };
  const detail = async (id: string) =>
    (
      await env.app.inject({
        method: 'GET',
        url: `/api/emails/${id}`,
        headers: { 'x-api-key': tenant.apiKey },
      })
    ).json() as Detail;
  /** From the end of the message's last attempt to its next (ms). */
  const retryDelay = async (id: string) => {
    const message = await env.message(tenant.accountId, id);
    const attempts = await env.attempts(tenant.accountId, id);
    const last = attempts[attempts.length - 1]!;
    return Number(message!.next_attempt_at) - (Number(last.started_at) + Number(last.duration_ms));
  };
  const settled = (id: string, statuses: string[]) =>
    until(`message ${id} to reach ${statuses.join('|')}`, async () => {
      const d = await detail(id);
      return statuses.includes(d.status) ? d : undefined;
    });

  it('delivers a DKIM-signed message with the HTML unchanged and a text alternative', async () => {
    const html = '<html><body><h1>Reset</h1><p>Your code is <b>483 920</b>. Ünïcödé ✓</p></body></html>';
    const id = await send({
      to: 'Jane Doe <jane@dest.example>',
      subject: 'Ihr Code – 483 920',
      message: html,
    });
    const d = await settled(id, ['delivered']);
    const [received] = sink.for('jane@dest.example');
    expect(received).toBeDefined();

    // Envelope: VERP return path on the customer's return-path domain, naming this message.
    expect(received!.from).toMatch(/^b\+[0-9a-f]{48}@send\.acme\.example$/);
    expect(env.services.verp.messageId(received!.from.split('@')[0]!)).toBe(id);

    const parsed = await simpleParser(received!.raw);
    expect(parsed.from?.value).toEqual([{ name: 'Acme', address: 'noreply@acme.example' }]);
    expect(parsed.to).toMatchObject({ value: [{ name: 'Jane Doe', address: 'jane@dest.example' }] });
    expect(parsed.subject).toBe('Ihr Code – 483 920');
    expect(parsed.messageId).toBe(`<${id}@mta.txmail.test>`);
    expect(parsed.date).toBeInstanceOf(Date);
    expect(parsed.headers.get('mime-version')).toBe('1.0');
    // Gmail's feedback loop tells tenants apart by it (deliver-message.ts feedbackId).
    expect(parsed.headers.get('feedback-id')).toBe(`${tenant.accountId}:acme.example:txmail`);
    expect(parsed.html).toBe(html);
    expect(parsed.text).toContain('Your code is 483 920');

    // DKIM verifies against the key published in the DNS server, aligned with From.
    const resolver = new dns.Resolver();
    resolver.setServers([dnsServer.address]);
    const verified = await dkimVerify(received!.raw, {
      resolver: (name: string, type: string) =>
        type === 'TXT' ? resolver.resolveTxt(name) : resolver.resolve(name, type),
    } as Parameters<typeof dkimVerify>[1]);
    const sig = verified.results[0] as unknown as {
      status: { result: string; aligned: string };
      signingDomain: string;
    };
    expect(sig.status.result).toBe('pass');
    expect(sig.signingDomain).toBe('acme.example');

    expect(d.events.map((e) => e.type)).toEqual(['email.delivered', 'email.queued']);
    expect(d.delivery_attempts).toHaveLength(1);
    expect(d.delivery_attempts[0]).toMatchObject({
      outcome: 'delivered',
      smtp_code: 250,
      remote_host: 'mx.dest.example',
      remote_ip: '127.0.0.1',
      tls: true,
    });
    expect(d.delivery_attempts[0]!.reply).toMatch(/^250 2\.0\.0 queued as/);
  });

  it('bounces on a permanent refusal and does not retry', async () => {
    const id = await send({ to: 'bounce-1@dest.example' });
    const d = await settled(id, ['bounced']);
    expect(d.next_attempt_at).toBeNull();
    expect(d.events[0]).toMatchObject({
      type: 'email.bounced',
      data: { enhanced_code: '5.1.1', smtp_code: 550 },
    });
    expect(d.delivery_attempts[0]).toMatchObject({ outcome: 'bounced', enhanced_code: '5.1.1' });
  });

  it('defers the recipient when the MX answers 451, with one delivery_delayed event and a retry scheduled', async () => {
    const before = Date.now();
    const id = await send({ to: 'defer-1@dest.example' });
    const d = await settled(id, ['deferred']);
    expect(d.events.map((e) => e.type)).toEqual(['email.delivery_delayed', 'email.queued']);
    const next = Date.parse(d.next_attempt_at!);
    expect(next - before).toBeGreaterThan(5 * 60_000 * 0.85 - 1000);
    expect(next - before).toBeLessThan(5 * 60_000 * 1.15 + 5000);
    expect(d.delivery_attempts[0]).toMatchObject({
      outcome: 'deferred',
      smtp_code: 451,
      enhanced_code: '4.3.0',
    });
  });

  it('defers on 421, marks it as throttling and pauses the destination', async () => {
    mail.addDomain('slow.example');
    const id = await send({ to: 'throttle@slow.example' });
    const d = await settled(id, ['deferred']);
    expect(d.delivery_attempts[0]).toMatchObject({ smtp_code: 421, enhanced_code: '4.7.0' });
    expect(d.events[0]).toMatchObject({
      type: 'email.delivery_delayed',
      data: { category: 'rate_limited', greylisted: false },
    });
    // The next message for the same MX host waits for the pause without an attempt being counted.
    const second = await send({ to: 'ok@slow.example' });
    await until('the second message to be rescheduled', async () => {
      const s = await detail(second);
      return s.next_attempt_at && Date.parse(s.next_attempt_at) > Date.now() + 30_000 ? s : undefined;
    });
    const s = await detail(second);
    expect(s.attempts).toBe(0);
    expect(s.delivery_attempts).toEqual([]);
    expect(sink.for('ok@slow.example')).toEqual([]);
  });

  it('defers when the connection drops during DATA', async () => {
    const id = await send({ to: 'drop@dest.example' });
    const d = await settled(id, ['deferred']);
    expect(d.delivery_attempts[0]).toMatchObject({
      outcome: 'deferred',
      smtp_code: null,
      enhanced_code: '4.4.2',
    });
    expect(d.events[0]).toMatchObject({
      type: 'email.delivery_delayed',
      data: { category: 'network_error' },
    });
  });

  it('bounces a message refused after DATA with its enhanced code', async () => {
    const id = await send({ to: 'reject@dest.example' });
    const d = await settled(id, ['bounced']);
    expect(d.delivery_attempts[0]).toMatchObject({ smtp_code: 554, enhanced_code: '5.6.0' });
  });

  it('routes by the DNS rules: implicit MX, null MX, NXDOMAIN, SERVFAIL', async () => {
    dnsServer.add('implicit.example', 'A', '127.0.0.1');
    dnsServer.add('nullmx.example', 'MX', { preference: 0, exchange: '.' });
    dnsServer.breakName('broken.example');
    const implicit = await send({ to: 'someone@implicit.example' });
    const nullMx = await send({ to: 'someone@nullmx.example' });
    const missing = await send({ to: 'someone@missing.example' });
    const broken = await send({ to: 'someone@broken.example' });
    expect((await settled(implicit, ['delivered'])).delivery_attempts[0]!.remote_host).toBe(
      'implicit.example',
    );
    const n = await settled(nullMx, ['bounced']);
    const m = await settled(missing, ['bounced']);
    const b = await settled(broken, ['deferred']);
    expect(n.delivery_attempts[0]).toMatchObject({ enhanced_code: '5.1.10' });
    expect(m.delivery_attempts[0]).toMatchObject({ enhanced_code: '5.1.2' });
    expect(b.delivery_attempts[0]).toMatchObject({ enhanced_code: '4.4.3' });
    // A look-up that failed for the moment is tried again in 30 s (± 15 %), not 5 minutes.
    expect(await retryDelay(broken)).toBeLessThanOrEqual(34_500);
    // A domain that does not exist or takes no mail is unknown_domain and suppresses the address; a
    // DNS failure is a network_error and suppresses nothing.
    expect(n.events[0]).toMatchObject({ type: 'email.bounced', data: { category: 'unknown_domain' } });
    expect(m.events[0]).toMatchObject({ type: 'email.bounced', data: { category: 'unknown_domain' } });
    expect(b.events[0]).toMatchObject({
      type: 'email.delivery_delayed',
      data: { category: 'network_error' },
    });
    const suppressed = async (address: string) =>
      (
        (
          await env.app.inject({
            method: 'GET',
            url: `/api/suppressions?address=${address}`,
            headers: { 'x-api-key': tenant.apiKey },
          })
        ).json() as { data: unknown[] }
      ).data.length;
    expect(await suppressed('someone@nullmx.example')).toBe(1);
    expect(await suppressed('someone@missing.example')).toBe(1);
    expect(await suppressed('someone@broken.example')).toBe(0);
  });

  it('looks a domain up once for the deliveries that follow (the worker DNS cache)', async () => {
    mail.addDomain('cached.example');
    // The routing look-ups only (MTA-STS asks for its TXT record on its own, with its own cache).
    const asked = () => dnsServer.queries.filter((q) => /^(MX|A|AAAA) (.+\.)?cached\.example$/.test(q));
    const first = await send({ to: 'one@cached.example' });
    await settled(first, ['delivered']);
    // The first delivery asked for the MX and the host's addresses (A; AAAA answers "no records").
    expect(asked()).toEqual(['MX cached.example', 'A mx.cached.example', 'AAAA mx.cached.example']);
    const second = await send({ to: 'two@cached.example' });
    expect((await settled(second, ['delivered'])).delivery_attempts[0]!.remote_host).toBe(
      'mx.cached.example',
    );
    expect(asked()).toHaveLength(3);
  });

  it('defers as network_error when no MX host can be reached', async () => {
    dnsServer.add('unreachable.example', 'MX', { preference: 10, exchange: 'dead.unreachable.example' });
    dnsServer.add('dead.unreachable.example', 'A', '127.0.0.2'); // nothing listens there
    const id = await send({ to: 'user@unreachable.example' });
    const d = await settled(id, ['deferred']);
    expect(d.delivery_attempts[0]).toMatchObject({ smtp_code: null, enhanced_code: '4.4.1' });
    expect(d.events[0]).toMatchObject({
      type: 'email.delivery_delayed',
      data: { category: 'network_error', greylisted: false },
    });
    // Nobody was reached: the first retry comes in 30 s (± 15 %), not at the schedule's 5 minutes.
    expect(await retryDelay(id)).toBeLessThanOrEqual(34_500);
  });

  it('falls back to the next MX host when the preferred one is unreachable', async () => {
    dnsServer.add(
      'backup.example',
      'MX',
      { preference: 10, exchange: 'dead.backup.example' },
      { preference: 20, exchange: 'live.backup.example' },
    );
    dnsServer.add('dead.backup.example', 'A', '127.0.0.2'); // nothing listens there
    dnsServer.add('live.backup.example', 'A', '127.0.0.1');
    const id = await send({ to: 'user@backup.example' });
    const d = await settled(id, ['delivered']);
    expect(d.delivery_attempts[0]).toMatchObject({ remote_host: 'live.backup.example' });
  });

  it('reuses pooled connections across messages', async () => {
    const before = sink.connections;
    const ids = [];
    for (let i = 0; i < 10; i++) ids.push(await send({ to: `pooled${i}@dest.example` }));
    for (const id of ids) await settled(id, ['delivered']);
    expect(sink.connections - before).toBeLessThan(10);
  });
});

describe.each(databaseKinds)('delivery safety on $name', (kind) => {
  it('refuses MX hosts on private addresses unless allowed', async () => {
    const dnsServer = await new TestDnsServer().start();
    dnsServer.add('internal.example', 'MX', { preference: 10, exchange: 'mx.internal.example' });
    dnsServer.add('mx.internal.example', 'A', '10.1.2.3');
    const env = await startTestEnv(kind, { env: { TXMAIL_DNS_SERVERS: dnsServer.address } });
    try {
      const tenant = await createTenant(env.services, { domain: 'acme.example' });
      await env.services.startWorker({ pollMs: 100 });
      const res = await env.app.inject({
        method: 'POST',
        url: '/api/email/send',
        headers: { 'x-api-key': tenant.apiKey },
        payload: { ...validSend, to: 'x@internal.example' },
      });
      const id = (res.json() as { id: string }).id;
      const d = await until('the bounce', async () => {
        const m = await env.message(tenant.accountId, id);
        return m?.status === 'bounced' ? m : undefined;
      });
      expect(d.status).toBe('bounced');
      const [attempt] = await env.attempts(tenant.accountId, id);
      expect(attempt).toMatchObject({ enhanced_code: '5.4.4' });
    } finally {
      await env.close();
      await dnsServer.stop();
    }
  });

  it("applies the destination's rule: connections, messages per connection and rate", async () => {
    const mail = await mailFixture({ domains: ['limited.example'], exchange: 'mx1.limited.example' });
    const { sink } = mail;
    const env = await startTestEnv(kind, {
      env: {
        ...mail.env,
        // The rule names the MX host's domain, as a rule for a provider would.
        TXMAIL_DESTINATION_LIMITS: 'limited.example:connections=1,messages=2,rate=4',
      },
    });
    try {
      const tenant = await createTenant(env.services, { domain: 'acme.example' });
      await env.services.startWorker({ pollMs: 50 });
      for (let i = 0; i < 12; i++) {
        const res = await env.app.inject({
          method: 'POST',
          url: '/api/email/send',
          headers: { 'x-api-key': tenant.apiKey },
          payload: { ...validSend, to: `r${i}@limited.example` },
        });
        expect(res.statusCode).toBe(200);
      }
      await until('all 12 delivered', async () => (sink.received.length === 12 ? true : undefined), 20_000);
      const sessions = new Map<string, number>();
      for (const r of sink.received) sessions.set(r.session, (sessions.get(r.session) ?? 0) + 1);
      // Two messages per connection, so at least six connections.
      expect(Math.max(...sessions.values())).toBeLessThanOrEqual(2);
      expect(sessions.size).toBeGreaterThanOrEqual(6);
      // 4 per second with a one-second burst: the last of 12 takes its token 2 s after the first. The
      // first arrives later than its token by its connection's set-up, which a loaded machine makes
      // longer: at least 1.5 s between the first and the last to arrive (without the rate, 0.4-0.7 s).
      const times = sink.received.map((r) => r.at).sort((a, b) => a - b);
      expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(1500);
      // Waiting for a slot is not an attempt: every message was delivered on its first.
      // (The sink has it before the worker records it: wait for the records.)
      const rows = await until('12 attempts recorded', async () => {
        const r = await env.allAttempts();
        return r.length >= 12 ? r : undefined;
      });
      expect(rows.map((r) => r.outcome)).toEqual(Array(12).fill('delivered'));
    } finally {
      await env.close();
      await mail.stop();
    }
  });

  it('sends from the source addresses, a warming one only up to its paced daily cap', async () => {
    const mail = await mailFixture({ domains: ['pool.example'] });
    const { sink } = mail;
    const today = new Date().toISOString().slice(0, 10);
    const env = await startTestEnv(kind, {
      env: {
        ...mail.env,
        // All of 127/8 is loopback on Linux: two local addresses to send from, one warming since today
        // with a first-day cap of 24, that is 1 per hour's step (the pace is tested on its own).
        TXMAIL_SOURCE_IPS: `127.0.0.2, 127.0.0.3@${today}`,
        TXMAIL_WARMUP_SCHEDULE: '24,48',
      },
    });
    try {
      const tenant = await createTenant(env.services, { domain: 'acme.example' });
      await env.services.startWorker({ pollMs: 50 });
      const allowance = Math.ceil((24 * (new Date().getUTCHours() + 1)) / 24);
      const ids: string[] = [];
      for (let i = 0; i < allowance + 4; i++) {
        const res = await env.app.inject({
          method: 'POST',
          url: '/api/email/send',
          headers: { 'x-api-key': tenant.apiKey },
          payload: { ...validSend, to: `p${i}@pool.example` },
        });
        ids.push((res.json() as { id: string }).id);
      }
      await until('all delivered', async () => (sink.received.length === ids.length ? true : undefined));
      const from = (address: string) => sink.received.filter((r) => r.clientAddress === address).length;
      expect(from('127.0.0.3')).toBe(allowance);
      expect(from('127.0.0.2')).toBe(4);
      // Each attempt records the address it left from, and the counts reach the shared table.
      const attempts = await until('every attempt recorded', async () => {
        const rows = await env.allAttempts();
        return rows.length === ids.length ? rows : undefined;
      });
      expect(attempts.filter((a) => a.source_ip === '127.0.0.3')).toHaveLength(allowance);
      await until(
        'counts synced',
        async () => {
          const row = (await env.sourceIpUsage()).find((r) => r.ip === '127.0.0.3');
          return row && Number(row.sent) === allowance ? row : undefined;
        },
        10_000,
      );
    } finally {
      await env.close();
      await mail.stop();
    }
  });

  it.runIf(kind.name === 'postgres')(
    'wakes a worker in another process at once when mail is queued, also after its listener was cut',
    async () => {
      const mail = await mailFixture({ domains: ['wake.example'] });
      const { sink } = mail;
      // The API process: accepts, runs no worker.
      const api = await startTestEnv(kind, { env: mail.env });
      // The worker process: same database, a poll far beyond every wait below.
      const workerServices = await createServices(api.services.config, {
        logger: pino({ level: 'silent' }),
        migrate: false,
      });
      try {
        const tenant = await createTenant(api.services, { domain: 'acme.example' });
        await workerServices.startWorker({ pollMs: 10 * 60_000 });
        const sendOne = async (to: string) => {
          const res = await api.app.inject({
            method: 'POST',
            url: '/api/email/send',
            headers: { 'x-api-key': tenant.apiKey },
            payload: { ...validSend, to },
          });
          expect(res.statusCode).toBe(200);
          await until(`${to} delivered`, async () => sink.for(to)[0], 5000);
        };
        await sendOne('first@wake.example');

        // Cut the worker's listening connection (only its own: other tests share the server).
        const pid = workerServices.queueSignal.listenerPid();
        expect(pid).toBeDefined();
        await sql`select pg_terminate_backend(${pid!})`.execute(api.services.db.kysely);
        // The listener is back once it has listened on a new connection (queue-signal.ts records its pid).
        await until('the listener to reconnect', async () => {
          const now = workerServices.queueSignal.listenerPid();
          return now !== undefined && now !== pid ? now : undefined;
        });
        await sendOne('second@wake.example');
      } finally {
        await workerServices.close();
        await api.close();
        await mail.stop();
      }
    },
  );

  it('delivers through an authenticated relay when TXMAIL_RELAY_URL is set', async () => {
    const relay = await new SmtpSink({ auth: { user: 'relayuser', pass: 's3cret/+' } }).start();
    const env = await startTestEnv(kind, {
      env: { TXMAIL_RELAY_URL: `smtp://relayuser:${encodeURIComponent('s3cret/+')}@127.0.0.1:${relay.port}` },
    });
    try {
      const tenant = await createTenant(env.services, { domain: 'acme.example' });
      await env.services.startWorker({ pollMs: 100 });
      const res = await env.app.inject({
        method: 'POST',
        url: '/api/email/send',
        headers: { 'x-api-key': tenant.apiKey },
        payload: { ...validSend, to: 'someone@anywhere.example' },
      });
      expect(res.statusCode).toBe(200);
      const got = await until(
        'the relay to receive it',
        async () => relay.for('someone@anywhere.example')[0],
      );
      expect(got.user).toBe('relayuser');
    } finally {
      await env.close();
      await relay.stop();
    }
  });
});
