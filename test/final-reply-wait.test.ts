// A receiving server slow to answer the final "." may have taken the message: txmail waits for that reply
// as RFC 5321 §4.5.3.2.6 asks (10 minutes; shorter here), past the attempt's own time and the
// connection's inactivity limit, and sends nothing again meanwhile: not on a fresh connection within the
// attempt, and not from another claim, since the worker renews its lease while it waits
// (delivery/worker.ts renewLeases). Giving up at 2 minutes sent a slow server the message twice.
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SmtpTransport } from '../src/delivery/smtp-transport.js';
import { databaseKinds } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { ScriptedSmtpServer } from './helpers/scripted-smtp.js';
import { createTenant, sendAccepted, startTestEnv, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';

const raw = Buffer.from('Subject: your code\r\nFrom: a@acme.example\r\n\r\nyour code is 123456\r\n');

/** A hold the test lets go of; `held` once the server waits on it. */
function hold() {
  let release!: () => void;
  let held = false;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    wait: () => ((held = true), gate),
    get held() {
      return held;
    },
    release: () => release(),
  };
}

/**
 * A minimal SMTP session on `socket`: greets after `greetAfterMs`, answers every command, and hands each
 * message's end (its final ".") to `dataEnd`, which answers it (true) or has closed the session (false).
 */
function plainSession(socket: net.Socket, greetAfterMs: number, dataEnd: () => boolean): void {
  let buffered = '';
  let inData = false;
  socket.on('error', () => undefined);
  const timer = setTimeout(() => socket.write('220 plain.test ESMTP\r\n'), greetAfterMs);
  socket.on('close', () => clearTimeout(timer));
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('latin1');
    for (;;) {
      if (inData) {
        const end = buffered.indexOf('\r\n.\r\n');
        if (end < 0) return;
        buffered = buffered.slice(end + 5);
        inData = false;
        if (!dataEnd()) return;
        socket.write('250 2.0.0 queued\r\n');
        continue;
      }
      const eol = buffered.indexOf('\r\n');
      if (eol < 0) return;
      const verb = buffered.slice(0, 4).toUpperCase();
      buffered = buffered.slice(eol + 2);
      if (verb === 'EHLO') socket.write('250-plain.test\r\n250 8BITMIME\r\n');
      else if (verb === 'DATA') {
        inData = true;
        buffered = `\r\n${buffered}`;
        socket.write('354 go ahead\r\n');
      } else if (verb === 'QUIT') socket.end('221 bye\r\n');
      else socket.write('250 ok\r\n');
    }
  });
}

describe('the reply to the final "."', () => {
  let server: ScriptedSmtpServer;
  let transport: SmtpTransport | undefined;
  beforeAll(async () => {
    server = await new ScriptedSmtpServer().start();
  });
  afterEach(async () => {
    await transport?.close();
    server.beforeDataEnd = () => undefined;
  });
  afterAll(() => server.stop());

  const target = () => [{ host: 'mx.dest.example', address: '127.0.0.1', port: server.port, secure: false }];
  const messages = () => server.sessions.reduce((n, s) => n + s.messages, 0);

  it('is waited for past the attempt time and the inactivity limit, and the message is delivered', async () => {
    transport = new SmtpTransport({
      hostname: 'mta.txmail.test',
      socketTimeoutMs: 200,
      attemptTimeoutMs: 300,
      finalReplyTimeoutMs: 60_000,
    });
    const slow = hold();
    server.beforeDataEnd = slow.wait;
    const before = messages();
    const attempt = transport.deliver({ from: 'b@send.acme.example', to: 'r@dest.example', raw }, target());
    await until('the final "." to reach the server', async () => (slow.held ? true : undefined));
    // Past both the attempt's 300 ms and the 200 ms of inactivity: both would have cut it before.
    await new Promise((r) => setTimeout(r, 700));
    slow.release();
    expect(await attempt).toMatchObject({ outcome: 'delivered', smtpCode: 250 });
    expect(messages()).toBe(before + 1);
  });

  it('unanswered within its bound on a reused connection, is not sent again on a fresh one', async () => {
    transport = new SmtpTransport({ hostname: 'mta.txmail.test', finalReplyTimeoutMs: 400 });
    const job = (to: string) => ({ from: 'b@send.acme.example', to, raw });
    expect(await transport.deliver(job('one@dest.example'), target())).toMatchObject({
      outcome: 'delivered',
    });
    const sessions = server.sessions.length;
    const before = messages();
    // The next message goes on the pooled connection, and its final "." is never answered.
    server.beforeDataEnd = () => new Promise<void>(() => undefined);
    const result = await transport.deliver(job('two@dest.example'), target());
    expect(result).toMatchObject({ outcome: 'deferred', smtpCode: null, category: 'network_error' });
    expect(result.reply).toMatch(/no reply to the end of the data within 0\.4 s: the server may have taken/);
    // The server had the whole message once; no fresh connection sent it a second time.
    expect(messages()).toBe(before + 1);
    expect(server.sessions.length).toBe(sessions);
  });
});

describe('a reused connection lost after the final "."', () => {
  it('does not send the message again on a fresh connection: the server may have taken it', async () => {
    // Takes every message; the second one's final "." it answers by closing the connection.
    let messages = 0;
    let sessions = 0;
    const server = net.createServer((socket) => {
      sessions++;
      plainSession(socket, 0, () => {
        if (++messages < 2) return true;
        socket.destroy();
        return false;
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const transport = new SmtpTransport({ hostname: 'mta.txmail.test' });
    try {
      const target = [
        {
          host: 'mx.dest.example',
          address: '127.0.0.1',
          port: (server.address() as net.AddressInfo).port,
          secure: false,
        },
      ];
      const job = (to: string) => ({ from: 'b@send.acme.example', to, raw });
      expect(await transport.deliver(job('one@dest.example'), target)).toMatchObject({
        outcome: 'delivered',
      });
      // On the pooled connection, lost after its final ".": deferred, not sent again at once.
      expect(await transport.deliver(job('two@dest.example'), target)).toMatchObject({ outcome: 'deferred' });
      expect([messages, sessions]).toEqual([2, 1]);
    } finally {
      await transport.close();
      server.close();
    }
  });
});

describe("a worker waiting for the final reply past its message's lease", () => {
  const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;
  const SLOW = '127.0.0.64';
  let env: TestEnv;
  const mail = new MailFixture({ domains: [] });
  const slowServer = new ScriptedSmtpServer();
  const slow = hold();
  slowServer.beforeDataEnd = slow.wait;

  beforeAll(async () => {
    await mail.start();
    // The same port as the sink (every MX is reached at TXMAIL_MX_PORT), on another loopback address.
    await slowServer.start(mail.sink.port, SLOW);
    mail.addDomain('slow.example', 'mx.slow.example', SLOW);
    // A 2-second lease: the attempt's own time is 1 s (half of it), renewals come every half second.
    env = await startTestEnv(sqlite, { env: { ...mail.env, TXMAIL_WORKER_LEASE_SECONDS: '2' } });
  });
  afterAll(async () => {
    slow.release();
    await env?.close();
    await slowServer.stop();
    await mail.stop();
  });

  it('renews the lease, so no other claim takes the message, and records the delivery once', async () => {
    const tenant = await createTenant(env.services, { domain: 'acme.example' });
    const id = await sendAccepted(env, tenant, { to: 'ann@slow.example' });
    await env.services.startWorker();
    await until('the final "." to reach the server', async () => (slow.held ? true : undefined));
    const [claimed] = await env.leased();
    expect(claimed).toMatchObject({ id });
    // The lease is extended before it would end; then the claim's original end has passed.
    const first = Number(claimed!.lease_expires_at);
    await until('the lease renewed past its first end', async () => {
      const [row] = await env.leased();
      return Number(row?.lease_expires_at) > first && Date.now() > first ? true : undefined;
    });
    // Another process's claim finds nothing due: the message is still this worker's.
    expect(await env.claimDue('another-process', Date.now(), Date.now() + 2000, 10)).toEqual([]);
    slow.release();
    await until('the message delivered', async () =>
      (await env.message(tenant.accountId, id))?.status === 'delivered' ? true : undefined,
    );
    expect(slowServer.sessions.reduce((n, s) => n + s.messages, 0)).toBe(1);
    expect(await env.attempts(tenant.accountId, id)).toHaveLength(1);
  });
});

describe('a worker stopping while a server withholds its reply to the final "."', () => {
  const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;
  const SLOW = '127.0.0.65';
  const mail = new MailFixture({ domains: [] });
  const slowServer = new ScriptedSmtpServer();
  const slow = hold();
  slowServer.beforeDataEnd = slow.wait;

  beforeAll(async () => {
    await mail.start();
    await slowServer.start(mail.sink.port, SLOW);
    mail.addDomain('withheld.example', 'mx.withheld.example', SLOW);
  });
  afterAll(async () => {
    slow.release();
    await slowServer.stop();
    await mail.stop();
  });

  it('gives the delivery up after TXMAIL_WORKER_STOP_SECONDS and ends, cutting the session, rather than wait 10 minutes', async () => {
    const env = await startTestEnv(sqlite, { env: { ...mail.env, TXMAIL_WORKER_STOP_SECONDS: '1' } });
    try {
      const tenant = await createTenant(env.services, { domain: 'acme.example' });
      await sendAccepted(env, tenant, { to: 'ann@withheld.example' });
      await env.services.startWorker();
      await until('the final "." to reach the server', async () => (slow.held ? true : undefined));
    } finally {
      // The whole service stops (a SIGTERM's path) while the reply is still withheld.
      await env.close();
    }
    expect(slow.held).toBe(true);
    await until('the session to be cut', async () => (slowServer.sessions[0]?.ended ? true : undefined));
  });
});

describe('an attempt under a short lease', () => {
  const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;
  const LATE = '127.0.0.66';
  const mail = new MailFixture({ domains: [] });
  // Greets 1.5 s late, then answers everything at once.
  const late = net.createServer((socket) => plainSession(socket, 1500, () => true));
  let env: TestEnv;
  beforeAll(async () => {
    await mail.start();
    await new Promise<void>((resolve) => late.listen(mail.sink.port, LATE, resolve));
    mail.addDomain('late.example', 'mx.late.example', LATE);
    // A 2-second lease: the attempt's time was cut to half of it (1 s), shorter than this greeting.
    env = await startTestEnv(sqlite, { env: { ...mail.env, TXMAIL_WORKER_LEASE_SECONDS: '2' } });
  });
  afterAll(async () => {
    await env?.close();
    late.close();
    await mail.stop();
  });

  it('keeps its whole time, the lease renewed meanwhile: a server slower than half the lease is delivered to', async () => {
    const tenant = await createTenant(env.services, { domain: 'acme.example' });
    const id = await sendAccepted(env, tenant, { to: 'ann@late.example' });
    await env.services.startWorker();
    const attempts = await until('the first attempt recorded', async () => {
      const a = await env.attempts(tenant.accountId, id);
      return a.length > 0 ? a : undefined;
    });
    expect(attempts[0]).toMatchObject({ outcome: 'delivered' });
  });
});
