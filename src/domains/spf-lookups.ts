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

export async function countSpfLookups(record: string, fetch: SpfFetch): Promise<SpfLookupCount> {
  const result: SpfLookupCount = { lookups: 0, problems: [], incomplete: false };
  await walk(record, fetch, result, new Set());
  return result;
}

async function walk(record: string, fetch: SpfFetch, acc: SpfLookupCount, seen: Set<string>): Promise<void> {
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
    // Macros (RFC 7208 §7) expand per message; a loop would never end: neither is followed.
    if (target === '' || target.includes('%') || seen.has(target)) continue;
    seen.add(target);
    const records = await fetch(target);
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
    await walk(records[0]!, fetch, acc, seen);
    if (acc.lookups > SPF_LOOKUP_LIMIT) return;
  }
}

/** The SPF records among TXT record values (RFC 7208 §4.5: exactly `v=spf1`, then a space or the end). */
export function spfRecords(txt: string[]): string[] {
  return txt.filter((t) => /^v=spf1(\s|$)/i.test(t.trim()));
}
