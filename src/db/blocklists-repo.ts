// Blocklist verdicts per (target, zone), and the schedule row that elects one process per check.
import type { Kysely } from 'kysely';
import type { Listing } from '../blocklists/query.js';
import type { BlocklistListingsTable, Database } from './schema.js';

const SCHEDULE_ID = 'monitor';

export class BlocklistsRepo {
  constructor(private readonly db: Kysely<Database>) {}

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

  /**
   * Takes the next check if it is due: true for exactly one caller, which holds it until `leaseUntil`
   * (a process that dies mid-check leaves it due again then). One conditional UPDATE is atomic on both
   * databases, so no two processes check in the same interval.
   */
  async claimRun(owner: string, now: number, leaseUntil: number): Promise<boolean> {
    await this.db
      .insertInto('blocklist_schedule')
      .values({ id: SCHEDULE_ID, next_run_at: 0, owner: null, last_run_at: null })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const result = await this.db
      .updateTable('blocklist_schedule')
      .set({ next_run_at: leaseUntil, owner })
      .where('id', '=', SCHEDULE_ID)
      .where('next_run_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Ends the check `owner` holds: the next is due at `nextRunAt`; false when the claim was lost. */
  async finishRun(owner: string, now: number, nextRunAt: number): Promise<boolean> {
    const result = await this.db
      .updateTable('blocklist_schedule')
      .set({ next_run_at: nextRunAt, owner: null, last_run_at: now })
      .where('id', '=', SCHEDULE_ID)
      .where('owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives back a check not finished (shutdown): due again at once, for another process. */
  async releaseRun(owner: string, now: number): Promise<void> {
    await this.db
      .updateTable('blocklist_schedule')
      .set({ next_run_at: now, owner: null })
      .where('id', '=', SCHEDULE_ID)
      .where('owner', '=', owner)
      .execute();
  }

  async schedule(): Promise<{ nextRunAt: number; lastRunAt: number | null } | undefined> {
    const row = await this.db
      .selectFrom('blocklist_schedule')
      .selectAll()
      .where('id', '=', SCHEDULE_ID)
      .executeTakeFirst();
    return (
      row && {
        nextRunAt: Number(row.next_run_at),
        lastRunAt: row.last_run_at === null ? null : Number(row.last_run_at),
      }
    );
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
