// Scheduled re-checks with time under the test's control: pending → verified, records removed →
// temporary_failure → failed after the grace period, DNS trouble changing nothing, leases between checkers.
import pino from 'pino';
import { afterEach, beforeAll, afterAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { DomainChecker } from '../src/domains/domain-checker.js';
import { databaseKinds } from './helpers/databases.js';
import { TestDnsServer } from './helpers/dns-server.js';
import { domainsApi, publish, recordOf, serviceDnsEnv, type DomainJson } from './helpers/domains.js';
import { until } from './helpers/wait.js';
import { createTenant, startTestEnv, validSend, type Tenant, type TestEnv } from './helpers/services.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe.each(databaseKinds)('scheduled domain checks on $name', (kind) => {
  const dns = new TestDnsServer();
  let env: TestEnv;
  let clock: ManualClock;
  let api: ReturnType<typeof domainsApi>;
  let tenant: Tenant;

  beforeAll(() => dns.start());
  afterAll(() => dns.stop());
  beforeEach(async () => {
    clock = new ManualClock();
    env = await startTestEnv(kind, { clock, env: serviceDnsEnv(dns) });
    api = domainsApi(env.app);
    tenant = await createTenant(env.services, { plan: 'scale' });
  });
  afterEach(() => env.close());

  const checker = (batch = 10) =>
    new DomainChecker(env.services.domains, env.services.repos.domains, clock, pino({ level: 'silent' }), {
      pollMs: 10 * 60_000,
      batch,
      leaseMs: 5 * MINUTE,
    });
  const add = async (name: string) =>
    (await api(tenant, 'POST', '/api/domains', { name })).json() as DomainJson;
  const get = async (d: DomainJson) =>
    (await api(tenant, 'GET', `/api/domains/${d.id}`)).json() as DomainJson;
  const state = async () => (await env.account(tenant.accountId))!.state;
  const send = (from: string) => api(tenant, 'POST', '/api/email/send', { ...validSend, from });

  it('runs the checks on its own once started, as serve and worker do', async () => {
    const d = await add('timer.example');
    publish(dns, d);
    clock.advance(MINUTE);
    env.services.startDomainChecker({ pollMs: 20 });
    await until('the scheduled check', async () => ((await get(d)).status === 'verified' ? true : undefined));
    expect(await state()).toBe('production');
  });

  it('verifies a pending domain on a scheduled check once its records appear', async () => {
    const c = checker();
    const d = await add('sched.example');
    expect(await c.runOnce()).toBe(0); // the first check waits a minute
    clock.advance(MINUTE);
    expect(await c.runOnce()).toBe(1);
    let now = await get(d);
    expect(now.status).toBe('pending');
    expect(recordOf(now, 'dkim').status).toBe('missing');
    expect(now.next_check_at).toBe(new Date(clock.now() + MINUTE).toISOString());
    expect(await c.runOnce()).toBe(0); // not due again yet

    publish(dns, d);
    clock.advance(MINUTE);
    expect(await c.runOnce()).toBe(1);
    now = await get(d);
    expect(now.status).toBe('verified');
    expect(now.next_check_at).toBe(new Date(clock.now() + HOUR).toISOString());
    expect(await state()).toBe('production');
    expect((await send('a@sched.example')).statusCode).toBe(200);
  });

  it('moves a verified domain whose records disappear to temporary_failure, then to failed after 72 h', async () => {
    const c = checker();
    const d = await add('lost.example');
    publish(dns, d);
    expect((await get(d)).status).toBe('pending');
    expect(((await api(tenant, 'POST', `/api/domains/${d.id}/verify`)).json() as DomainJson).status).toBe(
      'verified',
    );

    // A resolver outage is not a missing record: the domain stays verified.
    const dkimName = recordOf(d, 'dkim').name;
    dns.breakName(dkimName);
    clock.advance(HOUR);
    expect(await c.runOnce()).toBe(1);
    let now = await get(d);
    expect(now.status).toBe('verified');
    expect(recordOf(now, 'dkim').status).toBe('error');
    expect(now.last_check!.outcome).toBe('inconclusive');
    dns.repairName(dkimName);

    // The DKIM record is removed: a grace period, during which the domain still sends.
    dns.remove(dkimName);
    clock.advance(HOUR);
    await c.runOnce();
    now = await get(d);
    expect(now.status).toBe('temporary_failure');
    expect(now.fails_at).toBe(new Date(clock.now() + 72 * HOUR).toISOString());
    expect(await state()).toBe('production');
    expect((await send('a@lost.example')).statusCode).toBe(200);

    // Still missing 71 hours later: still in the grace period.
    clock.advance(71 * HOUR);
    await c.runOnce();
    expect((await get(d)).status).toBe('temporary_failure');

    clock.advance(HOUR);
    await c.runOnce();
    now = await get(d);
    expect(now.status).toBe('failed');
    expect(now.next_check_at).toBeNull();
    expect(await state()).toBe('sandbox');
    const refused = await send('a@lost.example');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toMatch(/^account_sandboxed: /);

    // A failed domain is no longer checked on its own; a manual verify after fixing DNS brings it back.
    clock.advance(10 * HOUR);
    expect(await c.runOnce()).toBe(0);
    publish(dns, d, ['dkim']);
    const back = (await api(tenant, 'POST', `/api/domains/${d.id}/verify`)).json() as DomainJson;
    expect(back.status).toBe('verified');
    expect(await state()).toBe('production');
  });

  it('returns a domain in its grace period to verified when its records come back', async () => {
    const c = checker();
    const d = await add('flap.example');
    publish(dns, d);
    await api(tenant, 'POST', `/api/domains/${d.id}/verify`);
    dns.remove('send.flap.example', 'TXT');
    clock.advance(HOUR);
    await c.runOnce();
    expect((await get(d)).status).toBe('temporary_failure');
    expect(recordOf(await get(d), 'spf').status).toBe('missing');

    dns.add('send.flap.example', 'TXT', recordOf(d, 'spf').value);
    clock.advance(15 * MINUTE);
    await c.runOnce();
    const now = await get(d);
    expect(now.status).toBe('verified');
    expect(now.fails_at).toBeNull();
  });

  it('fails a domain never verified within 72 h, and a manual verify restarts its window', async () => {
    const c = checker();
    const d = await add('never.example');
    clock.advance(72 * HOUR);
    await c.runOnce();
    let now = await get(d);
    expect(now.status).toBe('failed');
    expect(await state()).toBe('sandbox');

    now = (await api(tenant, 'POST', `/api/domains/${d.id}/verify`)).json() as DomainJson;
    expect(now.status).toBe('pending');
    expect(now.fails_at).toBe(new Date(clock.now() + 72 * HOUR).toISOString());
    expect(now.next_check_at).not.toBeNull();
  });

  it("shares the work between checkers: each due domain is checked once, a dead checker's lease expires", async () => {
    const names = ['c1', 'c2', 'c3', 'c4', 'c5'].map((n) => `${n}.share.example`);
    for (const n of names) await add(n);
    clock.advance(MINUTE);
    const [a, b] = [checker(2), checker(2)];
    const counts = await Promise.all([a.runOnce(), b.runOnce()]);
    expect(counts[0]! + counts[1]!).toBe(5);

    // A checker claims and dies: nobody else checks those domains until its lease expires.
    clock.advance(MINUTE);
    const claimed = await env.services.repos.domains.claimDue(
      'dead',
      clock.now(),
      clock.now() + 5 * MINUTE,
      10,
    );
    expect(claimed).toHaveLength(5);
    expect(await a.runOnce()).toBe(0);
    clock.advance(5 * MINUTE);
    expect(await a.runOnce()).toBe(5);
  });
});
