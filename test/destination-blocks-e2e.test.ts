// Destination blocks end to end (ARCHITECTURE.md, "Destination blocks"): the send route → the real
// worker → a real SMTP server on loopback, found through a real DNS server, that refuses mail from
// 127.0.0.1 with a Spamhaus listing. Two accounts refused: their messages stay deferred (never bounced,
// never suppressed), the destination is paused for 127.0.0.1, new mail for it waits without an attempt,
// the real `txmail status` alerts and /metrics shows the pause. A worker given a second source address
// (127.0.0.2) sends the same destination's mail from it, the waiting messages included.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds, type TestDatabase } from './helpers/databases.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { runCommand } from './helpers/command.js';
import { ScriptedSmtpServer } from './helpers/scripted-smtp.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';

const BLOCK = '550 5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org';
const SECRET = 'k'.repeat(64);

interface Detail {
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  events: { type: string; data: Record<string, unknown> }[];
  delivery_attempts: { outcome: string; smtp_code: number | null; reply: string; source_ip: string | null }[];
}

describe.each(databaseKinds)('destination blocks end to end on $name', (kind) => {
  const dnsServer = new TestDnsServer();
  const server = new ScriptedSmtpServer();
  let database: TestDatabase;
  const envs: TestEnv[] = [];
  let a: Tenant;
  let b: Tenant;
  let settings: Record<string, string>;

  beforeAll(async () => {
    await dnsServer.start();
    await server.start();
    dnsServer.add('dest.example', 'MX', { preference: 10, exchange: 'mx.dest.example' });
    dnsServer.add('mx.dest.example', 'A', '127.0.0.1');
    // The destination refuses the sending address 127.0.0.1 as Spamhaus lists it; any other is fine.
    server.reply = (step, _recipient, client) =>
      step === 'rcpt' && client === '127.0.0.1' ? `${BLOCK}\r\n` : undefined;
    database = await kind.create();
    settings = {
      TXMAIL_DNS_SERVERS: dnsServer.address,
      TXMAIL_MX_PORT: String(server.port),
      TXMAIL_ALLOW_PRIVATE_NETWORKS: 'true',
      TXMAIL_TEST_DOMAIN: 'test.txmail.example',
      TXMAIL_DESTINATION_BLOCKS: 'accounts=2,window_minutes=60,pause_minutes=60',
    };
  });
  afterAll(async () => {
    for (const env of envs) await env.close();
    await database.drop();
    await server.stop();
    await dnsServer.stop();
  });

  const start = async (sourceIps: string) => {
    const env = await startTestEnv(kind, { database, env: { ...settings, TXMAIL_SOURCE_IPS: sourceIps } });
    envs.push(env);
    await env.services.startWorker({ pollMs: 100 });
    return env;
  };
  const send = async (env: TestEnv, tenant: Tenant, from: string, to: string) => {
    const res = await env.app.inject({
      method: 'POST',
      url: '/api/email/send',
      headers: { 'x-api-key': tenant.apiKey },
      payload: { ...validSend, from, to },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { id: string }).id;
  };
  const detail = async (env: TestEnv, tenant: Tenant, id: string) =>
    (
      await env.app.inject({
        method: 'GET',
        url: `/api/emails/${id}`,
        headers: { 'x-api-key': tenant.apiKey },
      })
    ).json() as Detail;
  const metric = async (env: TestEnv) => (await env.app.inject({ method: 'GET', url: '/metrics' })).body;
  const cli = (args: string[]) =>
    runCommand(args, {
      TXMAIL_DATABASE_URL: database.url,
      TXMAIL_SECRET_KEY: SECRET,
      TXMAIL_LOG_LEVEL: 'silent',
    });

  let waiting: string[] = [];

  it('two accounts refused as sender blocks: deferred, not bounced, not suppressed; the destination is paused for the address', async () => {
    const env = await start('127.0.0.1');
    a = await createTenant(env.services, { domain: 'acme.example' });
    b = await createTenant(env.services, { domain: 'beta.example' });

    const deferred = async (tenant: Tenant, id: string) => {
      const d = await until(`message ${id} to be deferred`, async () => {
        const d = await detail(env, tenant, id);
        return d.status === 'queued' ? undefined : d;
      });
      expect(d.status).toBe('deferred');
      expect(d.attempts).toBe(1);
      expect(d.delivery_attempts).toMatchObject([
        { outcome: 'deferred', smtp_code: 550, reply: BLOCK, source_ip: '127.0.0.1' },
      ]);
      const delayed = d.events.find((e) => e.type === 'email.delivery_delayed');
      expect(delayed?.data).toMatchObject({
        category: 'policy_rejected',
        sender_block: true,
        smtp_code: 550,
      });
      expect(d.events.some((e) => e.type === 'email.bounced')).toBe(false);
      return d;
    };

    const a1 = await send(env, a, 'Acme <noreply@acme.example>', 'jane@dest.example');
    await deferred(a, a1);
    // One account is not enough: that could be the account's own trouble.
    expect(await env.destinationBlocks(Date.now())).toEqual([]);

    const b1 = await send(env, b, 'Beta <noreply@beta.example>', 'joe@dest.example');
    await deferred(b, b1);
    const [block, ...more] = await env.destinationBlocks(Date.now());
    expect(more).toEqual([]);
    expect(block).toMatchObject({
      destination: 'dest.example',
      sourceIp: '127.0.0.1',
      accounts: 2,
      reply: BLOCK,
    });
    expect(block!.pausedUntil - block!.pausedAt).toBe(60 * 60_000);

    // Nothing suppressed: the recipients did nothing wrong.
    expect(await env.suppression(a.accountId, 'jane@dest.example')).toBeUndefined();
    expect(await env.suppression(b.accountId, 'joe@dest.example')).toBeUndefined();

    // New mail for the destination waits for the pause to end, without an attempt: no session reaches
    // RCPT for it.
    const rcpts = () => server.sessions.flatMap((s) => s.commands).filter((c) => c === 'RCPT').length;
    const rcptsBefore = rcpts();
    const a2 = await send(env, a, 'Acme <noreply@acme.example>', 'jim@dest.example');
    const held = await until('the new message to wait for the pause', async () => {
      const d = await detail(env, a, a2);
      return d.next_attempt_at !== null && Date.parse(d.next_attempt_at) >= block!.pausedUntil
        ? d
        : undefined;
    });
    expect(held).toMatchObject({ status: 'queued', attempts: 0, delivery_attempts: [] });
    expect(rcpts()).toBe(rcptsBefore);
    waiting = [a1, a2];
  });

  it('txmail status (the real command) alerts, and /metrics shows the pause and the sender-block replies', async () => {
    const human = await cli(['status']);
    expect(human.code, human.stderr).toBe(1);
    expect(human.stdout).toContain('Destination blocks  (!)');
    expect(human.stdout).toMatch(
      /dest\.example refuses mail from 127\.0\.0\.1 \(2 accounts refused as sender blocks\)/,
    );
    const json = await cli(['status', '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as {
      alert: boolean;
      destination_blocks: Record<string, unknown>[];
    };
    expect(report.alert).toBe(true);
    expect(report.destination_blocks).toEqual([
      expect.objectContaining({
        destination: 'dest.example',
        source_ip: '127.0.0.1',
        accounts: 2,
        reply: BLOCK,
      }),
    ]);

    const text = await metric(envs[0]!);
    expect(text).toContain('txmail_destination_blocks{destination="dest.example",source_ip="127.0.0.1"} 1');
    expect(text).toMatch(
      /# HELP txmail_destination_blocks .*several accounts, or several replies, .*TXMAIL_DESTINATION_BLOCKS/,
    );
    expect(text).toMatch(/^txmail_sender_block_replies_total 2$/m);
  });

  it('a worker with a second source address sends the destination its mail from that one', async () => {
    await envs.shift()!.close();
    const env = await start('127.0.0.1,127.0.0.2');
    const a3 = await send(env, a, 'Acme <noreply@acme.example>', 'jill@dest.example');
    const delivered = async (id: string) => {
      const d = await until(`message ${id} to be delivered`, async () => {
        const d = await detail(env, a, id);
        return d.status === 'delivered' ? d : undefined;
      });
      // The attempts newest first: the delivery from 127.0.0.2, after any refusal from 127.0.0.1.
      expect(d.delivery_attempts[0]).toMatchObject({ outcome: 'delivered', source_ip: '127.0.0.2' });
      for (const attempt of d.delivery_attempts.slice(1))
        expect(attempt).toMatchObject({ outcome: 'deferred', source_ip: '127.0.0.1' });
      return d;
    };
    await delivered(a3);
    // The messages that waited go too, from 127.0.0.2, once due (made due now rather than in an hour).
    await sql`update messages set next_attempt_at = ${Date.now()} where id in (${sql.join(waiting)})`.execute(
      env.services.db.kysely,
    );
    env.services.signals.messagesQueued.emit();
    for (const id of waiting) await delivered(id);
    // Still paused for 127.0.0.1: nothing left from it after the pause was set.
    expect(await env.destinationBlocks(Date.now())).toHaveLength(1);
  });
});
