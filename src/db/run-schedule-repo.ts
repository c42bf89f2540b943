// A periodic job that one process runs per interval, whatever the number of processes: its schedule
// row (when the next run is due, the owner of a run in progress, when the last one ended), claimed by
// one conditional UPDATE, which is atomic on both databases. The blocklist check (migration 022) and
// the TLS reports (migration 024) each keep one such row in a table of their own.
import type { Kysely } from 'kysely';
import type { BlocklistScheduleTable, Database } from './schema.js';

export type ScheduleTable = 'blocklist_schedule' | 'tls_report_schedule';

/** The tables have the same columns; one name stands for either in the statements below. */
type ScheduleDb = { run_schedule: BlocklistScheduleTable };

export class RunScheduleRepo {
  private readonly schedules: Kysely<ScheduleDb>;
  private readonly table: 'run_schedule';

  constructor(
    db: Kysely<Database>,
    table: ScheduleTable,
    private readonly scheduleId: string,
  ) {
    this.schedules = db as unknown as Kysely<ScheduleDb>;
    this.table = table as unknown as 'run_schedule';
  }

  /**
   * Takes the next run if it is due: true for exactly one caller, which holds it until `leaseUntil`
   * (a process that dies mid-run leaves it due again then).
   */
  async claimRun(owner: string, now: number, leaseUntil: number): Promise<boolean> {
    await this.schedules
      .insertInto(this.table)
      .values({ id: this.scheduleId, next_run_at: 0, owner: null, last_run_at: null })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    const result = await this.schedules
      .updateTable(this.table)
      .set({ next_run_at: leaseUntil, owner })
      .where('id', '=', this.scheduleId)
      .where('next_run_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Keeps the run `owner` holds until `leaseUntil` (a long run renews it as it goes, so it is not taken
   * over while it works); false when the run is no longer `owner`'s and it must stop.
   */
  async extendRun(owner: string, leaseUntil: number): Promise<boolean> {
    const result = await this.schedules
      .updateTable(this.table)
      .set({ next_run_at: leaseUntil })
      .where('id', '=', this.scheduleId)
      .where('owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Ends the run `owner` holds: the next is due at `nextRunAt`; false when the claim was lost. */
  async finishRun(owner: string, now: number, nextRunAt: number): Promise<boolean> {
    const result = await this.schedules
      .updateTable(this.table)
      .set({ next_run_at: nextRunAt, owner: null, last_run_at: now })
      .where('id', '=', this.scheduleId)
      .where('owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives back a run not finished (shutdown, failure): due again at once, for any process. */
  async releaseRun(owner: string, now: number): Promise<void> {
    await this.schedules
      .updateTable(this.table)
      .set({ next_run_at: now, owner: null })
      .where('id', '=', this.scheduleId)
      .where('owner', '=', owner)
      .execute();
  }

  async schedule(): Promise<{ nextRunAt: number; lastRunAt: number | null } | undefined> {
    const row = await this.schedules
      .selectFrom(this.table)
      .selectAll()
      .where('id', '=', this.scheduleId)
      .executeTakeFirst();
    return (
      row && {
        nextRunAt: Number(row.next_run_at),
        lastRunAt: row.last_run_at === null ? null : Number(row.last_run_at),
      }
    );
  }
}
