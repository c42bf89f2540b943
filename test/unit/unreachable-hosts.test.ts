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

describe('unreachable hosts', () => {
  it('tries a host that never failed', () => {
    expect(new UnreachableHosts().mayTry('a', T0)).toBe(true);
  });

  it('skips a host that failed, for its wait', () => {
    const hosts = new UnreachableHosts();
    hosts.failed('a', T0);
    expect(hosts.mayTry('a', T0 + 1000)).toBe(false);
    expect(hosts.mayTry('a', T0 + FIRST_WAIT_MS - 1)).toBe(false);
    expect(hosts.mayTry('b', T0 + 1000)).toBe(true);
  });

  it('gives the first delivery to come to it after its wait the probe; the others skip it meanwhile', () => {
    const hosts = new UnreachableHosts();
    hosts.failed('a', T0);
    const after = T0 + FIRST_WAIT_MS;
    expect(hosts.mayTry('a', after)).toBe(true);
    expect(hosts.mayTry('a', after + 10)).toBe(false);
    // A probe that never answers is taken as lost: another delivery may try.
    expect(hosts.mayTry('a', after + PROBE_LIFETIME_MS)).toBe(true);
  });

  it('grants no probe to a delivery that does not ask (an earlier host took its message)', () => {
    const hosts = new UnreachableHosts();
    hosts.failed('b', T0);
    // Nothing asked about b after its wait: the next delivery that comes to it is its probe.
    expect(hosts.mayTry('a', T0 + FIRST_WAIT_MS)).toBe(true);
    expect(hosts.mayTry('b', T0 + FIRST_WAIT_MS + 60_000)).toBe(true);
  });

  it('makes a host up again when its server answers anything', () => {
    const hosts = new UnreachableHosts();
    hosts.failed('a', T0);
    hosts.reached('a');
    expect(hosts.mayTry('a', T0 + 1)).toBe(true);
    expect(hosts.size).toBe(0);
  });

  it('counts the failures of deliveries talking to it at once as one', () => {
    const hosts = new UnreachableHosts();
    for (let i = 0; i < 10; i++) hosts.failed('a', T0 + i);
    expect(hosts.mayTry('a', T0 + FIRST_WAIT_MS - 1)).toBe(false);
    expect(hosts.mayTry('a', T0 + FIRST_WAIT_MS)).toBe(true);
  });

  it('doubles the wait with each failed probe, up to the most, and starts again after a reply', () => {
    const hosts = new UnreachableHosts();
    const waits: number[] = [];
    let now = T0;
    hosts.failed('a', now);
    for (let i = 0; i < 8; i++) {
      // The first moment it may be tried again: the wait.
      let wait = 1000;
      while (!hosts.mayTry('a', now + wait)) wait += 1000;
      waits.push(wait);
      now += wait;
      hosts.failed('a', now);
    }
    expect(waits).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, MAX_WAIT_MS, MAX_WAIT_MS, MAX_WAIT_MS]);
    hosts.reached('a');
    hosts.failed('a', now);
    expect(hosts.mayTry('a', now + FIRST_WAIT_MS - 1)).toBe(false);
    expect(hosts.mayTry('a', now + FIRST_WAIT_MS)).toBe(true);
  });

  it('remembers at most MAX_HOSTS, forgetting the one whose last failure is oldest', () => {
    const hosts = new UnreachableHosts();
    for (let i = 0; i <= MAX_HOSTS; i++) hosts.failed(`h${i}`, T0);
    expect(hosts.size).toBe(MAX_HOSTS);
    expect(hosts.mayTry('h0', T0 + 1)).toBe(true);
    expect(hosts.mayTry('h1', T0 + 1)).toBe(false);
  });

  it('whatever happened before, a host is skipped only until a time that has not come', () => {
    const event = fc.record({
      kind: fc.constantFrom('failed' as const, 'reached' as const, 'ask' as const),
      host: fc.integer({ min: 0, max: 3 }),
      dt: fc.nat(1_000_000),
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        const hosts = new UnreachableHosts();
        let now = T0;
        for (const e of events) {
          now += e.dt;
          if (e.kind === 'failed') hosts.failed(`h${e.host}`, now);
          else if (e.kind === 'reached') hosts.reached(`h${e.host}`);
          else hosts.mayTry(`h${e.host}`, now);
        }
        // However it stands, every host may be tried again within the longest wait and a probe's life.
        for (let h = 0; h < 4; h++)
          expect(hosts.mayTry(`h${h}`, now + MAX_WAIT_MS + PROBE_LIFETIME_MS)).toBe(true);
      }),
    );
  });
});
