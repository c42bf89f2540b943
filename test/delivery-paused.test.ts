// A worker counted dead by another process (its leases released: a process paused by SIGSTOP, a frozen
// virtual machine) does not finish the message it was sending when it resumes: the other may hold its
// lease by then (DeliveryJob.mayFinish, process-registry.ts leaseCheck, wired in roles/worker.ts). Here
// the other process's sweep and this one's next heartbeat happen while the receiving server holds its
// answer to DATA: the content never follows, and the server keeps nothing. (A fault probe's paused
// worker finished 3 of 3 such messages after another worker had delivered them.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { ScriptedSmtpServer } from './helpers/scripted-smtp.js';
import { until } from './helpers/wait.js';
import { createTenant, sendAccepted, startTestEnv, type TestEnv } from './helpers/services.js';

const sqlite = databaseKinds.find((k) => k.name === 'sqlite')!;
const HOLDER = '127.0.0.62';

describe('a worker past its heartbeats', () => {
  let env: TestEnv;
  const mail = new MailFixture({ domains: [] });
  const holder = new ScriptedSmtpServer();
  let answerData: (() => void) | undefined;
  // The answer to DATA waits for the test.
  holder.beforeData = () => new Promise<void>((resolve) => (answerData = resolve));

  beforeAll(async () => {
    await mail.start();
    // The same port as the sink (every MX is reached at TXMAIL_MX_PORT), on another loopback address.
    await holder.start(mail.sink.port, HOLDER);
    mail.addDomain('held.example', 'mx.held.example', HOLDER);
    env = await startTestEnv(sqlite, { env: mail.env });
  });
  afterAll(async () => {
    await holder.stop();
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
    // The connection is cut after the 354, before any content.
    await until('the connection to end', async () => (holder.sessions[0]?.ended ? true : undefined));
    const [cut] = holder.sessions;
    expect(cut!.commands.filter((c) => c === 'DATA')).toHaveLength(1);
    expect([cut!.messages, cut!.contentBytes]).toEqual([0, 0]);
    // Its lease went back with the others: the message may be claimed again (here by this worker, once
    // registered again), and its next DATA waits as the first did; nothing was delivered.
    expect(holder.sessions.every((x) => x.messages === 0)).toBe(true);
    expect((await env.message(tenant.accountId, id))?.status).not.toBe('delivered');
  });
});

describe('a worker that claimed while it may have been counted dead', () => {
  let env: TestEnv;
  const mail = new MailFixture({ domains: ['dest.example'] });
  beforeAll(async () => {
    await mail.start();
    env = await startTestEnv(sqlite, { env: mail.env });
  });
  afterAll(async () => {
    await env?.close();
    await mail.stop();
  });

  it('gives the claim back at once and delivers the message at its next claim, once', async () => {
    const tenant = await createTenant(env.services, { domain: 'acme.example' });
    const id = await sendAccepted(env, tenant, { to: 'ann@dest.example' });
    // The first claim's check fails (the process resumed after a freeze, its heartbeat overdue);
    // the next claim's passes (the heartbeat came).
    let checks = 0;
    await env.services.startWorker({
      pollMs: 60_000,
      leaseCheck: () => {
        const first = ++checks === 1;
        return () => !first;
      },
    });
    await until('the message delivered', async () =>
      (await env.message(tenant.accountId, id))?.status === 'delivered' ? true : undefined,
    );
    expect(checks).toBeGreaterThanOrEqual(2);
    expect(mail.sink.received.filter((m) => m.to.includes('ann@dest.example'))).toHaveLength(1);
    expect(await env.attempts(tenant.accountId, id)).toHaveLength(1);
  });
});
