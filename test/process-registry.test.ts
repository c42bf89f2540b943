// The registry of live processes (process-registry.ts) on SQLite and PostgreSQL, with a manual clock:
// the leases of a process that stopped beating (messages, webhook pushes, inbound reports, domain
// checks) are released by a live process's sweep once it is dead, never before and never a live one's;
// on one host a gone pid, or our own pid under another boot time, is dead at once; a process that
// cannot beat stops claiming before others may count it dead, and registers again once it can.
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { ProcessesRepo } from '../src/db/processes-repo.js';
import { newId } from '../src/ids.js';
import { ProcessRegistry, type ProcessRegistryOptions } from '../src/process-registry.js';
import { databaseKinds } from './helpers/databases.js';
import { messageRow } from './helpers/message-row.js';
import { createTenant, startTestEnv, type TestEnv } from './helpers/services.js';
import { insertEndpoint, queuePushes } from './helpers/webhook-pushes.js';

const HEARTBEAT = 5000;
const DEAD = 15_000;
const silent = pino({ level: 'silent' });

describe.each(databaseKinds)('registry of live processes on $name', (kind) => {
  let env: TestEnv;
  let clock: ManualClock;
  let repo: ProcessesRepo;
  let accountId: string;
  let webhookId: string;
  beforeAll(async () => {
    env = await startTestEnv(kind);
    repo = new ProcessesRepo(env.services.db.kysely);
    const tenant = await createTenant(env.services);
    accountId = tenant.accountId;
    webhookId = (await insertEndpoint(db(), accountId)).id;
  });
  afterAll(() => env.close());
  beforeEach(async () => {
    clock = new ManualClock();
    // Each test sees only its own processes and leases.
    await db().deleteFrom('processes').execute();
    await db().updateTable('messages').set({ lease_owner: null, lease_expires_at: null }).execute();
  });

  const db = () => env.services.db.kysely;
  /** The pids that run on this host, as the tests pretend. */
  const running = new Set<number>([100, 200, 300]);
  const registry = (options: Partial<ProcessRegistryOptions> = {}, repository = repo) =>
    new ProcessRegistry(repository, clock, silent, {
      heartbeatMs: HEARTBEAT,
      deadMs: DEAD,
      host: 'host-a',
      pid: 100,
      boot: 1,
      pidAlive: (pid) => running.has(pid),
      ...options,
    });

  /** A lease of each kind, held by `owner`; returns how to read which are still held by it. */
  const leaseEverything = async (owner: string) => {
    const until = clock.now() + 600_000;
    const message = messageRow(accountId, { lease_owner: owner, lease_expires_at: until });
    await db().insertInto('messages').values(message).execute();
    const [eventId] = await queuePushes(db(), accountId, [clock.now()]);
    const pushId = `${eventId}:${webhookId}`;
    await db()
      .updateTable('webhook_outbox')
      .set({ lease_owner: owner, lease_expires_at: until })
      .where('id', '=', pushId)
      .execute();
    const inboundId = newId();
    await db()
      .insertInto('inbound_messages')
      .values({
        id: inboundId,
        received_at: clock.now(),
        remote_ip: '192.0.2.1',
        helo: 'mx.example',
        mail_from: '',
        rcpt_to: '[]',
        size: 1,
        status: 'pending',
        attempts: 1,
        lease_owner: owner,
        lease_expires_at: until,
        processed_at: null,
        outcome: null,
      })
      .execute();
    const domainId = newId();
    await db()
      .insertInto('domains')
      .values({
        id: domainId,
        account_id: accountId,
        name: `${domainId}.example`,
        status: 'verified',
        created_at: clock.now(),
        verified_at: clock.now(),
        verification_started_at: clock.now(),
        failing_since: null,
        last_checked_at: null,
        findings: null,
        next_check_at: clock.now(),
        check_lease_owner: owner,
        check_lease_until: until,
      })
      .execute();
    /** The kinds of lease `owner` still holds, with their lease times cleared or kept. */
    return async () => {
      const held: string[] = [];
      const m = await db()
        .selectFrom('messages')
        .selectAll()
        .where('id', '=', message.id)
        .executeTakeFirstOrThrow();
      if (m.lease_owner === owner && m.lease_expires_at !== null) held.push('message');
      const p = await db()
        .selectFrom('webhook_outbox')
        .selectAll()
        .where('id', '=', pushId)
        .executeTakeFirstOrThrow();
      if (p.lease_owner === owner && p.lease_expires_at !== null) held.push('push');
      const i = await db()
        .selectFrom('inbound_messages')
        .selectAll()
        .where('id', '=', inboundId)
        .executeTakeFirstOrThrow();
      if (i.lease_owner === owner && i.lease_expires_at !== null) held.push('inbound');
      const d = await db()
        .selectFrom('domains')
        .selectAll()
        .where('id', '=', domainId)
        .executeTakeFirstOrThrow();
      if (d.check_lease_owner === owner && d.check_lease_until !== null) held.push('domain');
      return held;
    };
  };
  const ALL = ['message', 'push', 'inbound', 'domain'];
  const registered = async () => (await repo.all()).map((p) => p.id).sort();

  it('releases every lease of a process once its heartbeat is older than the dead threshold, never a live one', async () => {
    const dying = registry({ pid: 200 });
    const live = registry({ pid: 300 });
    await dying.start();
    await live.start();
    const dyingHeld = await leaseEverything(dying.id);
    const liveHeld = await leaseEverything(live.id);
    await dying.stopBeating();
    // Two beats of the live one within the threshold: the silent one is late, not dead.
    for (let t = 0; t < 3; t++) {
      clock.advance(HEARTBEAT);
      await live.beat();
    }
    expect(await dyingHeld()).toEqual(ALL);
    expect(await registered()).toEqual([dying.id, live.id].sort());
    clock.advance(1);
    await live.beat();
    expect(await dyingHeld()).toEqual([]);
    expect(await liveHeld()).toEqual(ALL);
    expect(await registered()).toEqual([live.id]);
    // The live one is never swept by another live one either.
    const other = registry({ pid: 100 });
    await other.start();
    expect(await liveHeld()).toEqual(ALL);
    await Promise.all([live.stop(), other.stop()]);
  });

  it('counts the live processes that deliver mail, among which destination limits are shared', async () => {
    const first = registry({ pid: 200 });
    const second = registry({ pid: 300, host: 'host-b' });
    const inbound = registry({ pid: 100, host: 'host-c' });
    // The first says so before it registers, the second after (serve starts its inbound role first).
    await first.deliversMail();
    await first.start();
    await second.start();
    await inbound.start();
    expect(first.deliveryWorkers()).toBe(1);
    await second.deliversMail();
    clock.advance(HEARTBEAT);
    await first.beat();
    await second.beat();
    await inbound.beat();
    // The inbound-only process counts nobody but them, and is not counted.
    expect([first.deliveryWorkers(), second.deliveryWorkers(), inbound.deliveryWorkers()]).toEqual([2, 2, 2]);
    // The second goes silent: counted until it is dead, then not.
    await second.stopBeating();
    clock.advance(DEAD);
    await first.beat();
    expect(first.deliveryWorkers()).toBe(2);
    clock.advance(1);
    await first.beat();
    expect(first.deliveryWorkers()).toBe(1);
    await Promise.all([first.stop(), inbound.stop()]);
  });

  it('on one host, a process whose pid is gone is dead at once; elsewhere only by its heartbeat', async () => {
    const gone = registry({ pid: 4242 });
    const away = registry({ pid: 4243, host: 'host-b' });
    await gone.start();
    await away.start();
    await Promise.all([gone.stopBeating(), away.stopBeating()]);
    const goneHeld = await leaseEverything(gone.id);
    const awayHeld = await leaseEverything(away.id);
    // A process starting on host-a, with no time passed: its start sweeps.
    const starting = registry({ pid: 100 });
    await starting.start();
    expect(await goneHeld()).toEqual([]);
    expect(await awayHeld()).toEqual(ALL);
    await starting.stop();
  });

  it('our own pid under another boot time is a predecessor (a restarted container), under ours another registry here', async () => {
    const predecessor = registry({ pid: 100, boot: 1 });
    await predecessor.start();
    await predecessor.stopBeating();
    const predecessorHeld = await leaseEverything(predecessor.id);
    const restarted = registry({ pid: 100, boot: 2 });
    await restarted.start();
    expect(await predecessorHeld()).toEqual([]);
    const sibling = registry({ pid: 100, boot: 2 });
    await sibling.start();
    const siblingHeld = await leaseEverything(sibling.id);
    await restarted.beat();
    await registry({ pid: 100, boot: 2 }).sweep();
    expect(await siblingHeld()).toEqual(ALL);
    await Promise.all([sibling.stop(), restarted.stop()]);
  });

  it('a process that cannot beat stops claiming one beat before it may be counted dead, and registers again once it can', async () => {
    let down = false;
    const flaky = Object.create(repo) as ProcessesRepo;
    flaky.heartbeat = (id, now) =>
      down ? Promise.reject(new Error('database down')) : repo.heartbeat(id, now);
    const partitioned = registry({ pid: 200 }, flaky);
    const other = registry({ pid: 300 });
    await partitioned.start();
    await other.start();
    expect(partitioned.canClaim()).toBe(true);
    down = true;
    clock.advance(HEARTBEAT);
    await partitioned.beat();
    expect(partitioned.canClaim()).toBe(true);
    clock.advance(DEAD - 2 * HEARTBEAT);
    await partitioned.beat();
    // Not dead yet to the others, but one more missed beat would make it so: it claims nothing new.
    expect(partitioned.canClaim()).toBe(false);
    clock.advance(HEARTBEAT + 1);
    await other.beat();
    expect(await registered()).toEqual([other.id]);
    // The database is back: the swept process registers again (its old leases are gone) and claims.
    down = false;
    await partitioned.beat();
    expect(partitioned.canClaim()).toBe(true);
    expect(await registered()).toEqual([other.id, partitioned.id].sort());
    await Promise.all([partitioned.stop(), other.stop()]);
  });

  it('a process that stops gives back what it still holds and leaves the registry', async () => {
    const leaving = registry({ pid: 200 });
    await leaving.start();
    const held = await leaseEverything(leaving.id);
    await leaving.stop();
    expect(await held()).toEqual([]);
    expect(await registered()).toEqual([]);
  });
});
