// What blocklist monitoring looks up: the addresses mail leaves from, the names every message of the
// service carries (the HELO name, the test domain, which is the From and return-path domain of the
// service's own mail, the MX host customers' return-path domains point at, the SPF include domain), and
// the customers' return-path domains (`<TXMAIL_RETURN_PATH_LABEL>.<domain>`): the service's bounces
// travel under them, so a listing of one hurts every message of that customer. Customers' own domains
// (their From) are theirs to watch.
import { lookups, type BlocklistTarget, type Listing } from './query.js';
import type { BlocklistZone } from './zones.js';

export interface TargetSettings {
  sourceIps: readonly string[];
  hostname: string;
  testDomain: string;
  inboundMx: string;
  spfDomain: string;
}

/**
 * The most customers' return-path names one check looks up (the first by name): at a few lists each,
 * a check stays within minutes and within what public lists answer for free.
 */
export const RETURN_PATH_NAMES_MAX = 2000;

/** Where the sendable domains come from (db/domains-repo.ts). */
export interface SendableDomainNames {
  sendableNames(limit: number): Promise<string[]>;
}

export function blocklistTargets(
  s: TargetSettings,
  returnPathNames: readonly string[] = [],
): BlocklistTarget[] {
  const names = [
    ...new Set(
      [s.hostname, s.testDomain, s.inboundMx, s.spfDomain, ...returnPathNames].map((n) => n.toLowerCase()),
    ),
  ]
    // A single label (a container's default host name) is no public name: no list can hold it.
    .filter((n) => n.includes('.'));
  return [
    ...[...new Set(s.sourceIps)].map((target) => ({ target, kind: 'address' as const })),
    ...names.map((target) => ({ target, kind: 'name' as const })),
  ];
}

type PlanSettings = TargetSettings & { blocklistZones: readonly BlocklistZone[]; returnPathLabel: string };

export interface BlocklistPlan {
  targets: BlocklistTarget[];
  zones: readonly BlocklistZone[];
  sourceIps: readonly string[];
}

/** What monitoring looks up from the configuration alone (no customers' return-path names). */
export function blocklistPlan(c: PlanSettings): BlocklistPlan {
  return { targets: blocklistTargets(c), zones: c.blocklistZones, sourceIps: c.sourceIps };
}

/**
 * Everything monitoring looks up now: the configuration's targets and the return-path names of the
 * sendable domains (verified or temporary_failure), at most RETURN_PATH_NAMES_MAX of them. No zones:
 * no read.
 */
export async function blocklistPlanNow(
  c: PlanSettings,
  domains: SendableDomainNames,
): Promise<BlocklistPlan> {
  if (c.blocklistZones.length === 0) return blocklistPlan(c);
  const sendable = await domains.sendableNames(RETURN_PATH_NAMES_MAX);
  const returnPaths = sendable.map((d) => `${c.returnPathLabel}.${d}`);
  return { targets: blocklistTargets(c, returnPaths), zones: c.blocklistZones, sourceIps: c.sourceIps };
}

/** The stored verdicts of what is configured now (a removed zone's rows go at the next check). */
export function currentListings(
  stored: readonly Listing[],
  plan: { targets: readonly BlocklistTarget[]; zones: readonly BlocklistZone[] },
): Listing[] {
  const planned = new Set(lookups(plan.targets, plan.zones).map((p) => `${p.target.target} ${p.zone}`));
  return stored.filter((l) => planned.has(`${l.target} ${l.zone}`));
}
