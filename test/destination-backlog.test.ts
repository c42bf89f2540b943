// A saturated destination's backlog (ARCHITECTURE.md, "A saturated destination's backlog"): the worker turns away
// what its full line cannot take, and spaces it out instead of claiming the whole backlog again every
// second. The send route → the worker → a real SMTP server found through a real DNS server, whose one
// connection is held busy.
import { describe, expect, it } from 'vitest';
import { databaseKinds } from './helpers/databases.js';
import { mailFixture } from './helpers/mail-fixture.js';
import { createTenant, sendAccepted, startTestEnv } from './helpers/services.js';
import { until } from './helpers/wait.js';

const BACKLOG = 40;

describe.each(databaseKinds)('a saturated destination on $name', (kind) => {
  it('spaces the backlog its full line turns away, and calls it back once the destination frees', async () => {
    const mail = await mailFixture({ domains: ['busy.example'] });
    const { sink } = mail;
    const env = await startTestEnv(kind, {
      env: { ...mail.env, TXMAIL_DESTINATION_LIMITS: 'busy.example:connections=1' },
    });
    try {
      const tenant = await createTenant(env.services, { domain: 'acme.example' });
      await env.services.startWorker({ pollMs: 100 });
      const send = (to: string) => sendAccepted(env, tenant, { to });

      // The destination's one connection is busy (its reply to "." held), and one more waits in line.
      await send('hold-1@busy.example');
      await until('the held delivery', async () => sink.held('hold-1@busy.example'));
      const inLine = await send('in-line@busy.example');
      await until('the second in line', async () => {
        const m = await env.message(tenant.accountId, inLine);
        // Claimed (leased) and waiting for the slot: not rescheduled.
        return m?.lease_owner !== null ? true : undefined;
      });

      // The backlog: every message of it is turned away before it is signed.
      const backlog: string[] = [];
      for (let i = 0; i < BACKLOG; i++) backlog.push(await send(`r${i}@busy.example`));
      const parked = await until('the backlog turned away', async () => {
        const rows = (await env.messagesOf(tenant.accountId)).filter((m) => backlog.includes(m.id));
        const waiting = rows.filter((r) => Number(r.next_attempt_at) > Number(r.created_at));
        return waiting.length === BACKLOG ? waiting : undefined;
      });
      // Not all back a second later (where the worker would claim and reschedule the whole backlog every
      // second, as it did: 0.2-0.3 s between the first and the last): half a slot's time apart, the
      // slot taken to last as long as the held delivery has held it so far (here some 7 s in all).
      const times = parked.map((r) => Number(r.next_attempt_at)).sort((a, b) => a - b);
      expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(1500);
      // Nothing of it was attempted: turned away is not an attempt.
      const attempts = (await env.allAttempts()).filter((a) => backlog.includes(a.message_id));
      expect(attempts.length).toBe(0);

      // The destination frees: the one in line goes at once, and the parked backlog is called back as
      // connections come free, not each at its own time (the last is parked seconds out).
      sink.release('hold-1@busy.example');
      await until('the one in line delivered', async () =>
        (await env.message(tenant.accountId, inLine))?.status === 'delivered' ? true : undefined,
      );
      const last = parked.reduce((a, b) => (Number(b.next_attempt_at) > Number(a.next_attempt_at) ? b : a));
      const delivered = await until('the backlog delivered', async () => {
        const rows = await env.eventsOfTypes(['email.delivered'], backlog);
        return rows.length === BACKLOG ? rows : undefined;
      });
      const lastDelivered = delivered.find((r) => r.message_id === last.id)!;
      expect(Number(lastDelivered.created_at)).toBeLessThan(Number(last.next_attempt_at));
    } finally {
      // A stop waits for the deliveries in flight: a failed assertion must not leave one held.
      if (sink.held('hold-1@busy.example')) sink.release('hold-1@busy.example');
      await env.close();
      await mail.stop();
    }
  });
});
