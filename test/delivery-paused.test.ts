// A worker counted dead by another process (its leases released: a process paused by SIGSTOP, a frozen
// virtual machine) does not finish the message it was sending when it resumes: the other may hold its
// lease by then (DeliveryJob.mayFinish, process-registry.ts leaseCheck, wired in roles/worker.ts). Here
// the other process's sweep and this one's next heartbeat happen while the receiving server holds its
// answer to DATA: the content never follows, and the server keeps nothing. (A fault probe's paused
// worker finished 3 of 3 such messages after another worker had delivered them.)
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { until } from './helpers/wait.js';
import { createTenant, sendAccepted, startTestEnv, type TestEnv } from './helpers/services.js';

const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;
const HOLDER = '127.0.0.62';

describe('a worker past its heartbeats', () => {
  let env: TestEnv;
  const mail = new MailFixture({ domains: [] });
  const seen = { datas: 0, messages: 0 };
  let answerData: (() => void) | undefined;
  const holder = net.createServer((socket) => {
    let buf = '';
    let inData = false;
    socket.write('220 hold.example ESMTP\r\n');
    socket.on('data', (chunk) => {
      buf += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          buf = buf.slice(end + 5);
          inData = false;
          seen.messages++;
          socket.write('250 2.0.0 queued\r\n');
          continue;
        }
        const nl = buf.indexOf('\r\n');
        if (nl < 0) return;
        const verb = buf.slice(0, 4).toUpperCase();
        buf = buf.slice(nl + 2);
        if (verb === 'EHLO') socket.write('250-hold.example\r\n250 8BITMIME\r\n');
        else if (verb === 'QUIT') return void socket.end('221 bye\r\n');
        else if (verb === 'DATA') {
          seen.datas++;
          inData = true;
          // The answer waits for the test.
          answerData = () => socket.write('354 go ahead\r\n');
        } else socket.write('250 ok\r\n');
      }
    });
    socket.on('error', () => undefined);
  });

  beforeAll(async () => {
    await mail.start();
    await new Promise<void>((resolve) => holder.listen(mail.sink.port, HOLDER, resolve));
    mail.addDomain('held.example', 'mx.held.example', HOLDER);
    env = await startTestEnv(sqlite, { env: mail.env });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => holder.close(() => resolve()));
    await env?.close();
    await mail.stop();
  });

  it('sends no content of a message claimed before it was counted dead', async () => {
    const tenant = await createTenant(env.services, { domain: 'acme.example' });
    const id = await sendAccepted(env, tenant, { to: 'ann@held.example' });
    await env.services.startWorker({ pollMs: 60_000 });
    await until('the DATA command to reach the server', async () => (answerData ? true : undefined));
    // Another process's sweep counts this one dead and releases its leases, as after a long pause; this
    // one's next heartbeat finds out and registers again, so it may claim again, but not finish this.
    const registry = env.services.registry;
    await env.services.repos.processes.releaseOwner(registry.id);
    await registry.beat();
    expect(registry.canClaim()).toBe(true);
    answerData!();
    await until('the attempt to end', async () =>
      (await env.attempts(tenant.accountId, id)).length > 0 ? true : undefined,
    );
    expect(seen).toEqual({ datas: 1, messages: 0 });
    const [attempt] = await env.attempts(tenant.accountId, id);
    expect(attempt).toMatchObject({ outcome: 'deferred' });
  });
});
