// Blocklist verdicts per (target, zone), and the schedule row that elects one process per check.
import type { Kysely } from 'kysely';
import type { Listing } from '../blocklists/query.js';
import { RunScheduleRepo } from './run-schedule-repo.js';
import type { BlocklistListingsTable, Database } from './schema.js';

/** The claim of the hourly check's runs (claimRun, extendRun, finishRun, releaseRun, schedule) is RunScheduleRepo's. */
export class BlocklistsRepo extends RunScheduleRepo {
  constructor(private readonly db: Kysely<Database>) {
    super(db, 'blocklist_schedule', 'monitor');
  }

  async all(): Promise<Listing[]> {
    const rows = await this.db
      .selectFrom('blocklist_listings')
      .selectAll()
      .orderBy('target')
      .orderBy('zone')
      .execute();
    return rows.map(fromRow);
  }

  /** The source addresses some list holds now (workers set them aside while others remain). */
  async listedAddresses(zones: readonly string[]): Promise<Set<string>> {
    if (zones.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('blocklist_listings')
      .select('target')
      .where('kind', '=', 'address')
      .where('listed', '=', 1)
      .where('zone', 'in', zones)
      .execute();
    return new Set(rows.map((r) => r.target));
  }

  async save(listings: readonly Listing[]): Promise<void> {
    if (listings.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const l of listings) {
        const row = toRow(l);
        await trx
          .insertInto('blocklist_listings')
          .values(row)
          .onConflict((oc) =>
            oc.columns(['target', 'zone']).doUpdateSet({
              kind: row.kind,
              listed: row.listed,
              answer: row.answer,
              reason: row.reason,
              error: row.error,
              checked_at: row.checked_at,
              listed_since: row.listed_since,
            }),
          )
          .execute();
      }
    });
  }

  /** Forgets the rows of targets and zones no longer configured (their verdicts would mislead). */
  async keepOnly(keys: readonly { target: string; zone: string }[]): Promise<void> {
    const keep = new Set(keys.map((k) => `${k.target} ${k.zone}`));
    const rows = await this.db.selectFrom('blocklist_listings').select(['target', 'zone']).execute();
    for (const r of rows) {
      if (keep.has(`${r.target} ${r.zone}`)) continue;
      await this.db
        .deleteFrom('blocklist_listings')
        .where('target', '=', r.target)
        .where('zone', '=', r.zone)
        .execute();
    }
  }
}

function fromRow(r: BlocklistListingsTable): Listing {
  return {
    target: r.target,
    zone: r.zone,
    kind: r.kind,
    listed: Number(r.listed) === 1,
    answer: r.answer,
    reason: r.reason,
    error: r.error,
    checkedAt: Number(r.checked_at),
    listedSince: r.listed_since === null ? null : Number(r.listed_since),
  };
}

function toRow(l: Listing): BlocklistListingsTable {
  return {
    target: l.target,
    zone: l.zone,
    kind: l.kind,
    listed: l.listed ? 1 : 0,
    answer: l.answer,
    reason: l.reason,
    error: l.error,
    checked_at: l.checkedAt,
    listed_since: l.listedSince,
  };
}
