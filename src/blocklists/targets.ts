// What blocklist monitoring looks up: the addresses mail leaves from and the names every message of
// the service carries (the HELO name, the test domain, which is the From and return-path domain of the
// service's own mail, the MX host customers' return-path domains point at, the SPF include domain).
// Customers' own domains are theirs to watch: a listing of one says nothing about the shared addresses.
import { lookups, type BlocklistTarget, type Listing } from './query.js';
import type { BlocklistZone } from './zones.js';

export interface TargetSettings {
  sourceIps: readonly string[];
  hostname: string;
  testDomain: string;
  inboundMx: string;
  spfDomain: string;
}

export function blocklistTargets(s: TargetSettings): BlocklistTarget[] {
  const names = [...new Set([s.hostname, s.testDomain, s.inboundMx, s.spfDomain].map((n) => n.toLowerCase()))]
    // A single label (a container's default host name) is no public name: no list can hold it.
    .filter((n) => n.includes('.'));
  return [
    ...[...new Set(s.sourceIps)].map((target) => ({ target, kind: 'address' as const })),
    ...names.map((target) => ({ target, kind: 'name' as const })),
  ];
}

/** Everything monitoring needs from the configuration. */
export function blocklistPlan(c: TargetSettings & { blocklistZones: readonly BlocklistZone[] }): {
  targets: BlocklistTarget[];
  zones: readonly BlocklistZone[];
  sourceIps: readonly string[];
} {
  return { targets: blocklistTargets(c), zones: c.blocklistZones, sourceIps: c.sourceIps };
}

/** The stored verdicts of what is configured now (a removed zone's rows go at the next check). */
export function currentListings(
  stored: readonly Listing[],
  plan: { targets: readonly BlocklistTarget[]; zones: readonly BlocklistZone[] },
): Listing[] {
  const planned = new Set(lookups(plan.targets, plan.zones).map((p) => `${p.target.target} ${p.zone}`));
  return stored.filter((l) => planned.has(`${l.target} ${l.zone}`));
}
