// The blocklists' section of `txmail status` (operator-status.ts): what is listed where, since when,
// which sending addresses are set aside, and which lists gave no usable answer. Any listing is an alert.
import type { BlocklistsRepo } from '../db/blocklists-repo.js';
import { usableSources } from '../delivery/source-ip-pool.js';
import type { StatusSection } from '../operator-status.js';
import type { BlocklistTarget, Listing } from './query.js';
import { currentListings } from './targets.js';
import type { BlocklistZone } from './zones.js';

export interface BlocklistPlan {
  targets: readonly BlocklistTarget[];
  zones: readonly BlocklistZone[];
  sourceIps: readonly string[];
}

export function blocklistStatus(
  stored: readonly Listing[],
  schedule: { nextRunAt: number; lastRunAt: number | null } | undefined,
  plan: BlocklistPlan,
  now: number,
): StatusSection {
  const section = (json: unknown, lines: string[], alert = false): StatusSection => ({
    name: 'blocklists',
    title: 'Blocklists',
    json,
    lines,
    alert,
  });
  if (plan.zones.length === 0) {
    return section({ enabled: false }, ['monitoring is off (TXMAIL_DNSBL_ZONES=none)']);
  }
  const listings = currentListings(stored, plan);
  const listed = listings.filter((l) => l.listed);
  const errors = listings.filter((l) => l.error !== null);
  const listedSources = new Set(listed.filter((l) => l.kind === 'address').map((l) => l.target));
  const inUse = usableSources(plan.sourceIps, listedSources);
  const allSourcesListed = plan.sourceIps.length > 0 && plan.sourceIps.every((ip) => listedSources.has(ip));
  const iso = (t: number | null | undefined) =>
    t === null || t === undefined ? null : new Date(t).toISOString();
  const lines: string[] = [];
  for (const l of listed) {
    lines.push(
      `LISTED: ${l.target} on ${l.zone} since ${iso(l.listedSince)} (answer ${l.answer ?? '?'})${l.reason ? `: ${l.reason}` : ''}`,
    );
  }
  if (allSourcesListed) {
    lines.push(
      'every sending address is listed: mail still leaves from all of them (txmail never stops all mail)',
    );
  } else if (listedSources.size > 0) {
    lines.push(`mail leaves only from ${inUse.join(', ')} while ${[...listedSources].join(', ')} is listed`);
  }
  const byZone = new Map<string, Listing[]>();
  for (const l of errors) byZone.set(l.zone, [...(byZone.get(l.zone) ?? []), l]);
  for (const [zone, ls] of byZone) {
    lines.push(
      `${zone} gave no verdict for ${ls.length} look-up${ls.length === 1 ? '' : 's'}: ${ls[0]!.error}`,
    );
  }
  const last = schedule?.lastRunAt ?? null;
  lines.push(
    last === null
      ? `not checked yet (${plan.zones.length} zones; a worker checks when it starts)`
      : `${listings.length} look-ups in ${plan.zones.length} zones, last checked ${Math.max(0, Math.round((now - last) / 1000))} s ago` +
          `${listed.length === 0 ? ', nothing listed' : ''}`,
  );
  return section(
    {
      enabled: true,
      zones: plan.zones.map((z) => `${z.zone}:${z.kind}`),
      last_checked_at: iso(last),
      next_check_at: iso(schedule?.nextRunAt),
      listed: listed.map((l) => ({
        target: l.target,
        zone: l.zone,
        kind: l.kind,
        answer: l.answer,
        reason: l.reason,
        listed_since: iso(l.listedSince),
      })),
      errors: errors.map((l) => ({ target: l.target, zone: l.zone, error: l.error })),
      sources_in_use: inUse,
      all_sources_listed: allSourcesListed,
    },
    lines,
    listed.length > 0,
  );
}

export async function blocklistSection(
  repo: BlocklistsRepo,
  plan: BlocklistPlan,
  now: number,
): Promise<StatusSection> {
  return blocklistStatus(await repo.all(), await repo.schedule(), plan, now);
}
