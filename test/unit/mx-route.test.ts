// The MX route's look-ups (delivery/mx-route.ts): the first MAX_MX_HOSTS hosts in preference order, each
// host's A and AAAA at once and every host at once, so that hosts whose addresses never answer cost one
// look-up's time, not one per host.
import { describe, expect, it } from 'vitest';
import { DnsError } from '../../src/dns/resolver.js';
import { MAX_MX_HOSTS, resolveMxRoute } from '../../src/delivery/mx-route.js';

/** A resolver whose address look-ups wait until `answer()`; it counts them and those in flight at once. */
function heldDns(mxCount: number) {
  const waiting: (() => void)[] = [];
  let inFlight = 0;
  let most = 0;
  const asked: string[] = [];
  const held = (name: string, answer: () => string[]) => {
    asked.push(name);
    inFlight++;
    most = Math.max(most, inFlight);
    return new Promise<string[]>((resolve, reject) =>
      waiting.push(() => {
        inFlight--;
        try {
          resolve(answer());
        } catch (err) {
          reject(err as Error);
        }
      }),
    );
  };
  return {
    dns: {
      mx: async () =>
        Array.from({ length: mxCount }, (_, i) => ({ exchange: `mx${i}.dest.example`, priority: i })),
      a: (name: string) => held(name, () => (name === 'mx3.dest.example' ? ['192.0.2.3'] : [])),
      aaaa: (name: string) =>
        held(name, () => {
          throw new DnsError('temporary', `${name}: timed out`);
        }),
    },
    answer: () => waiting.splice(0).forEach((go) => go()),
    asked,
    most: () => most,
  };
}

describe('the MX route', () => {
  it(`looks up the addresses of the first ${MAX_MX_HOSTS} hosts all at once, and no more`, async () => {
    const held = heldDns(100);
    const route = resolveMxRoute('dest.example', held.dns, { allowPrivate: true });
    // Every look-up is asked before any answers: none waits for another.
    await new Promise((r) => setImmediate(r));
    expect(held.most()).toBe(2 * MAX_MX_HOSTS);
    held.answer();
    expect(await route).toEqual({
      ok: true,
      hosts: [{ name: 'mx3.dest.example', addresses: ['192.0.2.3'] }],
    });
    expect(new Set(held.asked)).toEqual(
      new Set(Array.from({ length: MAX_MX_HOSTS }, (_, i) => `mx${i}.dest.example`)),
    );
  });

  it('keeps the preference order of the hosts that answered', async () => {
    const dns = {
      mx: async () => [
        { exchange: 'backup.dest.example', priority: 20 },
        { exchange: 'primary.dest.example', priority: 10 },
      ],
      // The primary answers last.
      a: (name: string) =>
        new Promise<string[]>((r) =>
          setTimeout(
            () => r([name.startsWith('primary') ? '192.0.2.10' : '192.0.2.20']),
            name.startsWith('primary') ? 20 : 0,
          ),
        ),
      aaaa: async () => [],
    };
    const route = await resolveMxRoute('dest.example', dns, { allowPrivate: true });
    expect(route).toEqual({
      ok: true,
      hosts: [
        { name: 'primary.dest.example', addresses: ['192.0.2.10'] },
        { name: 'backup.dest.example', addresses: ['192.0.2.20'] },
      ],
    });
  });
});
