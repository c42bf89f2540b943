// A suspended account's queued mail waits, as a reputation-paused account's does (the worker's hold,
// roles/worker.ts): the operator's suspension stops its sending, not only its new sends (a blind probe
// saw some 4,500 of a suspended account's queued messages go out afterwards). Resumed, it goes again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { createTenant, sendAccepted, startTestEnv, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';

describe.each(databaseKinds)('a suspended account on $name', (kind) => {
  let env: TestEnv;
  const mail = new MailFixture({ domains: ['dest.example'] });
  beforeAll(async () => {
    await mail.start();
    env = await startTestEnv(kind, { env: mail.env });
  });
  afterAll(async () => {
    await env?.close();
    await mail.stop();
  });

  it("holds the account's queued mail while it is suspended, and delivers it once resumed", async () => {
    const held = await createTenant(env.services, { domain: 'acme.example' });
    const other = await createTenant(env.services, { domain: 'other.example' });
    const waiting = await sendAccepted(env, held, { to: 'ann@dest.example' });
    // Suspended after the accept, before any worker ran: the message is queued.
    await env.setSuspended(held.accountId, Date.now());
    const going = await sendAccepted(env, other, {
      from: 'Other <hello@other.example>',
      to: 'bob@dest.example',
    });
    await env.services.startWorker({ pollMs: 50 });
    await until('the other account delivered', async () =>
      (await env.message(other.accountId, going))?.status === 'delivered' ? true : undefined,
    );
    // Looked at and held: not sent, its next attempt moved on (HOLD_MS), no attempt counted.
    const row = await until('the held message rescheduled', async () => {
      const m = await env.message(held.accountId, waiting);
      return m && Number(m.next_attempt_at) > Date.now() + 60_000 ? m : undefined;
    });
    expect(row.status).toBe('queued');
    expect(row.attempts).toBe(0);
    expect(mail.sink.for('ann@dest.example')).toEqual([]);
    // Resumed (the hold is read again within a second), and made due again until it goes: delivered.
    await env.setSuspended(held.accountId, null);
    await until('the resumed account delivered', async () => {
      const m = await env.message(held.accountId, waiting);
      if (m?.status === 'delivered') return true;
      if (m?.next_attempt_at != null) {
        await env.services.repos.queue.recall([{ id: waiting, at: Number(m.next_attempt_at) }], Date.now());
        env.services.signals.messagesQueued.emit();
      }
      return undefined;
    });
  });
});
