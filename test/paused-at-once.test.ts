// A pause made in the worker's own process holds the account's mail at once (ARCHITECTURE.md,
// "Reputation guardrails"): the worker reads the paused accounts at most once a second, and the guard's
// move tells it to read them again. The clock stands still here, so the set read for the first message
// would be trusted for ever: only that word makes the second message wait.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { addReputationCounts } from '../src/db/reputation-repo.js';
import { NO_COUNTS } from '../src/reputation/counts.js';
import { HOLD_MS } from '../src/reputation/thresholds.js';
import { databaseKinds } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { messageRow } from './helpers/message-row.js';
import { createTenant, sendAccepted, startTestEnv, type TestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';

const NOW = Date.UTC(2026, 11, 2, 12);

describe.each(databaseKinds)('a pause made in the worker’s process on $name', (kind) => {
  let env: TestEnv;
  const clock = new ManualClock(NOW);
  const mail = new MailFixture({ domains: ['dest.example'] });

  beforeAll(async () => {
    await mail.start();
    env = await startTestEnv(kind, { clock, env: { ...mail.env, TXMAIL_REPUTATION: 'min_messages=20' } });
    await env.services.startWorker({ pollMs: 50 });
  });
  afterAll(async () => {
    await env.close();
    await mail.stop();
  });

  it('holds the next message taken, without waiting for the paused accounts to be read again', async () => {
    const t = await createTenant(env.services, { plan: 'pro', domain: 'acme.example' });
    // One message delivered: the worker has read the paused accounts (none) for it.
    const first = await sendAccepted(env, t, { from: 'noreply@acme.example', to: 'first@dest.example' });
    await until('the first message delivered', async () =>
      (await env.message(t.accountId, first))?.status === 'delivered' ? true : undefined,
    );

    // 3 bounces in 20 messages: the guard of this process pauses the account.
    await addReputationCounts(env.services.db.kysely, [
      {
        ...NO_COUNTS,
        accountId: t.accountId,
        day: '2026-12-02',
        domain: 'acme.example',
        final: 20,
        badBounces: 3,
      },
    ]);
    expect((await env.services.reputation.judge(t.accountId))?.to).toBe('paused');

    const held = messageRow(t.accountId, {
      to_email: 'held@dest.example',
      created_at: NOW,
      updated_at: NOW,
      next_attempt_at: NOW,
    });
    await env.insertMessage({ ...held, html: '<p>held</p>' });
    env.services.signals.messagesQueued.emit();
    const row = await until('the message taken', async () => {
      const r = await env.message(t.accountId, held.id);
      return r && (r.status !== 'queued' || Number(r.next_attempt_at) !== NOW) ? r : undefined;
    });
    expect(row).toMatchObject({ status: 'queued', attempts: 0, next_attempt_at: NOW + HOLD_MS });
    expect(mail.sink.received.some((m) => m.to.includes('held@dest.example'))).toBe(false);
  });
});
