// The memory of mail hosts that could not be reached (src/delivery/unreachable-hosts.ts): pure, the
// clock passed in.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  FIRST_WAIT_MS,
  MAX_HOSTS,
  MAX_WAIT_MS,
  PROBE_LIFETIME_MS,
  UnreachableHosts,
} from '../../src/delivery/unreachable-hosts.js';

const T0 = Date.UTC(2026, 10, 30, 12);
const tried = (hosts: UnreachableHosts, keys: string[], now: number) =>
  hosts
    .plan(keys, now)
    .filter((p) => p.try)
    .map((p) => p.key);

describe('unreachable hosts', () => {
  it('tries every host, in order, while none has failed', () => {
    const hosts = new UnreachableHosts();
    expect(tried(hosts, ['a', 'b', 'c'], T0)).toEqual(['a', 'b', 'c']);
  });

  it('skips a host that failed, for its wait, while another remains; says until when', () => {
    const hosts = new UnreachableHosts();
    hosts.failed('a', T0);
    expect(hosts.plan(['a', 'b'], T0 + 1000)).toEqual([
      { key: 'a', try: false, until: T0 + FIRST_WAIT_MS },
      { key: 'b', try: true },
    ]);
    expect(tried(hosts, ['a', 'b'], T0 + FIRST_WAIT_MS - 1)).toEqual(['b']);
  });

  it('tries every host when all of them are down: never leaves a message untried', () => {
    const hosts = new UnreachableHosts();
    hosts.failed('a', T0);
    hosts.failed('b', T0);
    expect(tried(hosts, ['a', 'b'], T0 + 1)).toEqual(['a', 'b']);
  });

  it('gives one delivery at a time the probe of a host whose wait has passed', () => {
    const hosts = new UnreachableHosts();
    hosts.failed('a', T0);
    const after = T0 + FIRST_WAIT_MS;
    expect(tried(hosts, ['a', 'b'], after)).toEqual(['a', 'b']);
    // The probe is in flight: the next delivery skips the host until it answers (or is taken as lost).
    expect(hosts.plan(['a', 'b'], after + 10)).toEqual([
      { key: 'a', try: false, until: after + PROBE_LIFETIME_MS },
      { key: 'b', try: true },
    ]);
    expect(tried(hosts, ['a', 'b'], after + PROBE_LIFETIME_MS)).toEqual(['a', 'b']);
  });

  it('makes a host up again when its server answers anything', () => {
    const hosts = new UnreachableHosts();
    hosts.failed('a', T0);
    hosts.reached('a');
    expect(tried(hosts, ['a', 'b'], T0 + 1)).toEqual(['a', 'b']);
    expect(hosts.size).toBe(0);
  });

  it('doubles the wait with each failure in a row, up to the most, and starts again after a reply', () => {
    const hosts = new UnreachableHosts();
    const waits: number[] = [];
    let now = T0;
    for (let i = 0; i < 8; i++) {
      hosts.failed('a', now);
      const skip = hosts.plan(['a', 'b'], now)[0]!;
      if (skip.try) throw new Error('the host should be skipped');
      waits.push(skip.until - now);
      now = skip.until;
    }
    expect(waits).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, MAX_WAIT_MS, MAX_WAIT_MS, MAX_WAIT_MS]);
    hosts.reached('a');
    hosts.failed('a', now);
    expect(hosts.plan(['a', 'b'], now)[0]).toEqual({ key: 'a', try: false, until: now + FIRST_WAIT_MS });
  });

  it('remembers at most MAX_HOSTS, forgetting the longest-failed first', () => {
    const hosts = new UnreachableHosts();
    for (let i = 0; i <= MAX_HOSTS; i++) hosts.failed(`h${i}`, T0);
    expect(hosts.size).toBe(MAX_HOSTS);
    expect(tried(hosts, ['h0', 'x'], T0 + 1)).toEqual(['h0', 'x']);
    expect(tried(hosts, ['h1', 'x'], T0 + 1)).toEqual(['x']);
  });

  it('whatever happened before, a plan tries at least one host and keeps the MX order', () => {
    const event = fc.oneof(
      fc.record({
        kind: fc.constant('failed' as const),
        host: fc.integer({ min: 0, max: 3 }),
        dt: fc.nat(1_000_000),
      }),
      fc.record({
        kind: fc.constant('reached' as const),
        host: fc.integer({ min: 0, max: 3 }),
        dt: fc.nat(1_000_000),
      }),
      fc.record({
        kind: fc.constant('plan' as const),
        host: fc.integer({ min: 0, max: 3 }),
        dt: fc.nat(1_000_000),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 40 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 3 }), { minLength: 1 }),
        (events, order) => {
          const hosts = new UnreachableHosts();
          let now = T0;
          const keys = order.map((h) => `h${h}`);
          for (const e of events) {
            now += e.dt;
            if (e.kind === 'failed') hosts.failed(`h${e.host}`, now);
            else if (e.kind === 'reached') hosts.reached(`h${e.host}`);
            else hosts.plan(keys, now);
          }
          const plan = hosts.plan(keys, now);
          expect(plan.map((p) => p.key)).toEqual(keys);
          expect(plan.some((p) => p.try)).toBe(true);
          for (const p of plan) if (!p.try) expect(p.until).toBeGreaterThan(now);
        },
      ),
    );
  });
});
