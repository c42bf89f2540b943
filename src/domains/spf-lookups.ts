// How many DNS look-ups evaluating an SPF record costs. RFC 7208 §4.6.4: the terms include, a, mx, ptr,
// exists and the redirect modifier each cost one, counted across every included record; more than 10
// make the whole evaluation a permerror, so receivers treat the domain as having no valid SPF at all.
export const SPF_LOOKUP_LIMIT = 10;

export interface SpfLookupCount {
  /** Look-ups counted; past the limit the walk stops, so this is then a lower bound. */
  lookups: number;
  /** Problems with included records (missing, duplicated, unresolvable). */
  problems: string[];
  /** A look-up failed temporarily: the count may be short. */
  incomplete: boolean;
}

/** The SPF records (`v=spf1 …`) among a name's TXT records; `undefined` when the look-up failed temporarily. */
export type SpfFetch = (domain: string) => Promise<string[] | undefined>;

const COUNTED = new Set(['include', 'a', 'mx', 'ptr', 'exists']);

/**
 * Counts as a receiver evaluates: every include and redirect is followed each time it is met (a record
 * included twice costs its look-ups twice), and one that leads back to a record on its own way (a loop,
 * which a receiver follows until the look-ups run out) is past the limit. `domain`: the name `record`
 * was read at, the start of that way. Each name is looked up once.
 */
export async function countSpfLookups(
  record: string,
  fetch: SpfFetch,
  domain?: string,
): Promise<SpfLookupCount> {
  const result: SpfLookupCount = { lookups: 0, problems: [], incomplete: false };
  const start = domain?.toLowerCase().replace(/\.$/, '');
  await walk(record, fetch, result, start ? [start] : [], new Map());
  return result;
}

async function walk(
  record: string,
  fetch: SpfFetch,
  acc: SpfLookupCount,
  way: string[],
  looked: Map<string, Promise<string[] | undefined>>,
): Promise<void> {
  for (const term of record.trim().split(/\s+/).slice(1)) {
    const m = /^[+\-~?]?([a-z][a-z0-9_.-]*)(?:([:=/])(.*))?$/i.exec(term);
    if (!m) continue;
    const name = m[1]!.toLowerCase();
    const isModifier = m[2] === '=';
    const counted = isModifier ? name === 'redirect' : COUNTED.has(name);
    if (!counted) continue;
    acc.lookups++;
    if (acc.lookups > SPF_LOOKUP_LIMIT) return;
    if (name !== 'include' && name !== 'redirect') continue;
    const target = (m[3] ?? '').toLowerCase().replace(/\.$/, '');
    // Macros (RFC 7208 §7) expand per message: not followed.
    if (target === '' || target.includes('%')) continue;
    if (way.includes(target)) {
      acc.problems.push(
        `${name}:${target} leads back to a record that includes it (a loop): receivers follow it until the ${SPF_LOOKUP_LIMIT} look-ups run out, and answer permerror`,
      );
      acc.lookups = SPF_LOOKUP_LIMIT + 1;
      return;
    }
    let lookup = looked.get(target);
    if (!lookup) looked.set(target, (lookup = fetch(target)));
    const records = await lookup;
    if (records === undefined) {
      acc.incomplete = true;
      continue;
    }
    if (records.length !== 1) {
      // RFC 7208 §5.2: an include whose target has no (or no single) SPF record is a permerror.
      acc.problems.push(
        records.length === 0
          ? `${name}:${target} has no SPF record`
          : `${name}:${target} has ${records.length} SPF records`,
      );
      continue;
    }
    await walk(records[0]!, fetch, acc, [...way, target], looked);
    if (acc.lookups > SPF_LOOKUP_LIMIT) return;
  }
}

/** The SPF records among TXT record values (RFC 7208 §4.5: exactly `v=spf1`, then a space or the end). */
export function spfRecords(txt: string[]): string[] {
  return txt.filter((t) => /^v=spf1(\s|$)/i.test(t.trim()));
}
