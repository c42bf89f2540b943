// An account's own backlog does not hold up its own one-time codes (ARCHITECTURE.md, "Expiry"): with
// every worker slot held by the account's attempts to servers that never greet and more of that mail
// waiting, a code from its domain with an expire_after goes out on the worker's lane, ahead of the
// older mail; and a code past its deadline while no place frees fails within the expiry pass's second,
// without an attempt, rather than when a slot reaches it. Both databases; the deadline is crossed with
// a manual clock. (The swap within a claim is the queue seam's contract test.)
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { capturedLog } from './helpers/captured-log.js';
import { databaseKinds } from './helpers/databases.js';
import { MailFixture } from './helpers/mail-fixture.js';
import { until } from './helpers/wait.js';
import { createTenant, sendAccepted, startTestEnv, type Tenant, type TestEnv } from './helpers/services.js';
import { testFacade } from './helpers/test-env.js';

const SLOTS = 2;
/** The account's mail without a deadline, to servers that never greet: more than the slots. */
const BACKLOG = 3 * SLOTS;
/** Each database's tarpit: the MX of every dead domain. */
const TARPIT = { sqlite: '127.0.0.67', postgres: '127.0.0.68' } as const;

describe.each(databaseKinds)('mail with a deadline within its own account, on $name', (kind) => {
  let env: TestEnv;
  let tenant: Tenant;
  const clock = new ManualClock(Date.UTC(2026, 11, 1, 9, 0, 0));
  const log = capturedLog();
  const mail = new MailFixture({ domains: ['dest.example'] });
  const open: net.Socket[] = [];
  let accepted = 0;
  const tarpit = net.createServer((socket) => {
    accepted++;
    open.push(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => open.splice(open.indexOf(socket), 1));
  });

  beforeAll(async () => {
    await mail.start();
    const address = TARPIT[kind.name as keyof typeof TARPIT];
    // The same port as the sink (every MX is reached at TXMAIL_MX_PORT), on another loopback address.
    await new Promise<void>((resolve) => tarpit.listen(mail.sink.port, address, resolve));
    for (let i = 0; i < BACKLOG; i++) mail.addDomain(`dead${i}.example`, 'mx.dead.example', address);
    env = await startTestEnv(kind, {
      clock,
      logger: log.logger,
      env: {
        ...mail.env,
        TXMAIL_WORKER_CONCURRENCY: String(SLOTS),
        TXMAIL_DESTINATION_LIMITS: 'default:connections=20,messages=100',
      },
    });
    tenant = await createTenant(env.services, { domain: 'acme.example' });
    await testFacade(env.services).addVerifiedDomain(tenant.accountId, 'codes.example');
  });
  afterAll(async () => {
    for (const s of [...open]) s.destroy();
    await new Promise<void>((resolve) => tarpit.close(() => resolve()));
    await env?.close();
    await mail.stop();
  });

  const message = (id: string) => env.message(tenant.accountId, id);
  /** Sets the expire_after of the account's domain `name`, through the API. */
  const expireAfter = async (t: Tenant, name: string, seconds: number) => {
    const domain = (await env.domainsOf(t.accountId)).find((d) => d.name === name);
    const res = await env.app.inject({
      method: 'PATCH',
      url: `/api/domains/${domain!.id}`,
      headers: { 'x-api-key': t.apiKey },
      payload: { expire_after: seconds },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const sendCode = (to: string) => sendAccepted(env, tenant, { from: 'Acme <codes@codes.example>', to });

  it("delivers a code while its own account's backlog holds every slot, and starts none of the backlog", async () => {
    await expireAfter(tenant, 'codes.example', 600);
    const backlog: string[] = [];
    for (let i = 0; i < BACKLOG; i++)
      backlog.push(await sendAccepted(env, tenant, { to: `jane@dead${i}.example` }));
    // No attempt stands aside: the slots stay held, as a backlog past the limit of those aside holds them.
    // A lease longer than the clock is moved here: leases are renewed by real time, and one run out by
    // the manual clock alone would make the account look idle to the reserve's claim.
    await env.services.startWorker({ pollMs: 60_000, asideLimit: 0, leaseMs: 3_600_000 });
    await until('every slot held by the tarpit', async () => (open.length >= SLOTS ? true : undefined));

    const code = await sendCode('jane@dest.example');
    // The deadline is fixed at the accept: its domain's expire_after after it.
    const stored = (await message(code))!;
    expect(stored.deadline_at).toBe(stored.created_at + 600_000);
    expect((await message(backlog[0]!))!.deadline_at).toBeNull();
    // No slot frees: the code goes out on the worker's lane, ahead of four older messages.
    await until('the code delivered', async () =>
      mail.sink.for('jane@dest.example').length > 0 ? true : undefined,
    );
    expect(open.length).toBe(SLOTS);
    expect(accepted).toBe(SLOTS);
    const waiting = await env.services.db.kysely
      .selectFrom('messages')
      .select('id')
      .where('id', 'in', backlog)
      .where('attempts', '=', 0)
      .where('lease_owner', 'is', null)
      .execute();
    expect(waiting).toHaveLength(BACKLOG - SLOTS);
  });

  it('fails a code past its deadline while every slot and the lane are held, without an attempt', async () => {
    // The lane's one place taken by a code to a server that never greets: the account's next code waits.
    await sendCode('jane@dead0.example');
    await until('the lane held by the tarpit', async () => (open.length >= SLOTS + 1 ? true : undefined));
    const code = await sendCode('late@dest.example');
    const acceptedAt = clock.now();
    clock.advance(600_000);
    const failed = await until(
      'the late code failed',
      async () => {
        const m = await message(code);
        return m?.status === 'failed' ? m : undefined;
      },
      15_000,
    );
    expect(failed).toMatchObject({
      attempts: 0,
      category: 'expired',
      next_attempt_at: null,
      lease_owner: null,
    });
    expect(await env.attempts(tenant.accountId, code)).toEqual([]);
    expect(mail.sink.for('late@dest.example')).toHaveLength(0);
    // The operator's log says so, as an MTA's says of mail it gives up on in its queue.
    const line = log
      .text()
      .split('\n')
      .find((l) => l.includes(code) && l.includes('expired without a further attempt'));
    expect(JSON.parse(line!)).toMatchObject({ messageId: code, domain: 'dest.example', attempts: 0 });
    const event = (await env.events(tenant.accountId, code)).find((e) => e.type === 'email.failed');
    expect(JSON.parse(event!.data)).toMatchObject({
      reason: 'expired',
      expired_at: new Date(acceptedAt + 600_000).toISOString(),
    });
    // Nothing was freed meanwhile: the slots and the lane still hold attempts to the tarpit.
    expect(open.length).toBe(SLOTS + 1);
  });

  it("leaves the reserve to other accounts while this account's codes hold the lane", async () => {
    const other = await createTenant(env.services, { domain: 'other.example' });
    // The account's lane place taken by a code to a server that never greets (the one before left it
    // at its deadline and still waits).
    await sendCode('jane@dead1.example');
    await until('the lane held by the tarpit', async () => (open.length >= SLOTS + 2 ? true : undefined));
    // An account with nothing in flight: its mail goes out on the reserve, which no code took.
    await sendAccepted(env, other, { from: 'Other <hello@other.example>', to: 'idle@dest.example' });
    await until(
      'the idle account delivered',
      async () => (mail.sink.for('idle@dest.example').length > 0 ? true : undefined),
      15_000,
    );
  });

  it('gives the lane place of a code past its deadline, still waiting on its server, to the next code', async () => {
    // The code on the lane (to the tarpit, sent in the test before) has ten minutes; this one, sent
    // five minutes later, fifteen.
    clock.advance(300_000);
    const code = await sendCode('next@dest.example');
    clock.advance(300_001);
    await until(
      'the next code delivered',
      async () => (mail.sink.for('next@dest.example').length > 0 ? true : undefined),
      15_000,
    );
    await until('the next code recorded delivered', async () =>
      (await message(code))?.status === 'delivered' ? true : undefined,
    );
    expect(await message(code)).toMatchObject({ attempts: 1 });
    // The code before it is still connected: it left its place, not its attempt.
    expect(open.length).toBe(SLOTS + 2);
  });

  it("gives the lane place of a code stuck at its server to another busy account's code", async () => {
    const busy = await createTenant(env.services, { domain: 'busy.example' });
    await expireAfter(busy, 'busy.example', 600);
    // The other account's mail to the tarpit takes the reserve: it is idle no longer.
    const before = accepted;
    await sendAccepted(env, busy, { from: 'Busy <news@busy.example>', to: 'jane@dead2.example' });
    await until('the reserve held by the tarpit', async () => (accepted >= before + 1 ? true : undefined));
    // This account's code to the tarpit takes the lane's one place.
    await sendCode('jane@dead3.example');
    await until('the lane held by the tarpit', async () => (accepted >= before + 2 ? true : undefined));
    // The other account's code: the stuck one stands aside in the lane's room and gives it the place.
    await sendAccepted(env, busy, { from: 'Busy <codes@busy.example>', to: 'busy-code@dest.example' });
    await until(
      "the other account's code delivered",
      async () => (mail.sink.for('busy-code@dest.example').length > 0 ? true : undefined),
      15_000,
    );
  });
});
