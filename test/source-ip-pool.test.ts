import { isIP } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import {
  parseSourceIp,
  SourceIpPool,
  warmupAllowance,
  type SourceIpUsageStore,
} from '../src/delivery/source-ip-pool.js';
import { databaseKinds } from './helpers/databases.js';
import { startTestEnv, type TestEnv } from './helpers/services.js';

const at = (iso: string) => Date.parse(iso);
const SCHEDULE = [48, 96, 240];

describe('warmupAllowance', () => {
  it.each([
    // since, now, allowance: day 1's cap of 48 is paced 2 per hour's step
    ['2026-11-20', '2026-11-19T12:00:00Z', 0],
    ['2026-11-20', '2026-11-20T00:00:00Z', 2],
    ['2026-11-20', '2026-11-20T00:59:59Z', 2],
    ['2026-11-20', '2026-11-20T01:00:00Z', 4],
    ['2026-11-20', '2026-11-20T23:59:59Z', 48],
    ['2026-11-20', '2026-11-21T00:30:00Z', 4],
    ['2026-11-20', '2026-11-22T11:00:00Z', 120],
    ['2026-11-20', '2026-11-23T00:00:00Z', Infinity],
  ])('warming since %s, at %s: %s', (since, now, allowance) => {
    expect(warmupAllowance(since, SCHEDULE, at(now))).toBe(allowance);
  });
});

describe('SourceIpPool', () => {
  it('sends from the warming address up to its allowance, then from the established ones in turn', () => {
    const clock = new ManualClock(at('2026-11-20T00:10:00Z'));
    const pool = new SourceIpPool(
      [
        { address: '192.0.2.1' },
        { address: '192.0.2.2' },
        { address: '192.0.2.9', warmingSince: '2026-11-20' },
      ],
      SCHEDULE,
      () => clock.now(),
    );
    const picks = Array.from({ length: 6 }, () => pool.take());
    expect(picks).toEqual([
      { address: '192.0.2.9' },
      { address: '192.0.2.9' },
      { address: '192.0.2.1' },
      { address: '192.0.2.2' },
      { address: '192.0.2.1' },
      { address: '192.0.2.2' },
    ]);
    clock.set(at('2026-11-20T01:00:00Z'));
    expect(pool.take()).toEqual({ address: '192.0.2.9' });
  });

  it('makes mail wait for the next hour when every address is warming and at its allowance', () => {
    const clock = new ManualClock(at('2026-11-20T05:20:00Z'));
    const pool = new SourceIpPool([{ address: '192.0.2.9', warmingSince: '2026-11-20' }], SCHEDULE, () =>
      clock.now(),
    );
    for (let i = 0; i < 12; i++) expect(pool.take()).toEqual({ address: '192.0.2.9' });
    expect(pool.take()).toEqual({ retryAt: at('2026-11-20T06:00:00Z') });
    // A new day starts a new count, with that day's cap.
    clock.set(at('2026-11-21T00:00:00Z'));
    for (let i = 0; i < 4; i++) expect(pool.take()).toEqual({ address: '192.0.2.9' });
    expect(pool.take()).toEqual({ retryAt: at('2026-11-21T01:00:00Z') });
  });

  it('leaves the choice to the system when no source address is configured', () => {
    expect(new SourceIpPool([], SCHEDULE, Date.now).take()).toEqual({ address: undefined });
  });

  it('keeps counts that failed to sync for the next sync', async () => {
    const clock = new ManualClock(at('2026-11-20T23:00:00Z'));
    const added: Map<string, number>[] = [];
    let fail = true;
    const store: SourceIpUsageStore = {
      add: async (_day, sent) => {
        if (fail) throw new Error('database down');
        added.push(new Map(sent));
        return new Map(sent);
      },
    };
    const pool = new SourceIpPool(
      [{ address: '192.0.2.9', warmingSince: '2026-11-20' }],
      SCHEDULE,
      () => clock.now(),
      store,
    );
    pool.take();
    pool.take();
    await expect(pool.sync()).rejects.toThrow('database down');
    pool.take();
    fail = false;
    await pool.sync();
    expect(added).toEqual([new Map([['192.0.2.9', 3]])]);
  });
});

describe('parseSourceIp', () => {
  it.each([
    ['192.0.2.1', { address: '192.0.2.1' }],
    ['2001:db8::1@2026-11-20', { address: '2001:db8::1', warmingSince: '2026-11-20' }],
  ])('reads %s', (entry, expected) => {
    expect(parseSourceIp(entry, (s) => isIP(s) !== 0)).toEqual(expected);
  });

  it.each([
    ['192.0.2.300', /not an IP address/],
    ['192.0.2.1@2026-02-30', /not a date/],
    ['192.0.2.1@yesterday', /not a date/],
  ])('refuses %s', (entry, message) => {
    expect(() => parseSourceIp(entry, (s) => isIP(s) !== 0)).toThrow(message);
  });
});

describe.each(databaseKinds)('source address counts on $name', (kind) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv(kind);
  });
  afterAll(async () => env.close());

  it('are shared by workers: each sync adds its own and sees everyone’s', async () => {
    const clock = new ManualClock(at('2026-11-20T23:30:00Z'));
    const ips = [{ address: '192.0.2.9', warmingSince: '2026-11-20' }];
    const store = env.services.repos.sourceIpUsage;
    const a = new SourceIpPool(ips, SCHEDULE, () => clock.now(), store);
    const b = new SourceIpPool(ips, SCHEDULE, () => clock.now(), store);
    for (let i = 0; i < 30; i++) a.take();
    await a.sync();
    await b.sync();
    // b knows a sent 30 of the 48: it may send 18 more, not 48.
    let sent = 0;
    while ('address' in b.take()) sent++;
    expect(sent).toBe(18);
    await b.sync();
    await a.sync();
    expect('retryAt' in a.take()).toBe(true);
    const rows = await env.sourceIpUsage();
    expect(rows.map((r) => ({ ...r, sent: Number(r.sent) }))).toEqual([
      { ip: '192.0.2.9', day: '2026-11-20', sent: 48 },
    ]);
  });
});
