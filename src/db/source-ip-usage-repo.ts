// Messages sent per source address per UTC day, shared by every worker (warm-up caps).
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

export class SourceIpUsageRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds this process's counts for the day and answers the totals of every address that day. */
  async add(day: string, sent: Map<string, number>): Promise<Map<string, number>> {
    return this.db.transaction().execute(async (trx) => {
      for (const [ip, n] of sent) {
        await trx
          .insertInto('source_ip_usage')
          .values({ ip, day, sent: n })
          .onConflict((oc) =>
            oc
              .columns(['ip', 'day'])
              .doUpdateSet({ sent: sql<number>`source_ip_usage.sent + excluded.sent` }),
          )
          .execute();
      }
      const rows = await trx
        .selectFrom('source_ip_usage')
        .select(['ip', 'sent'])
        .where('day', '=', day)
        .execute();
      return new Map(rows.map((r) => [r.ip, Number(r.sent)]));
    });
  }

  /** Forgets days before `day` (the counts only matter on their own day). */
  async deleteBefore(day: string): Promise<void> {
    await this.db.deleteFrom('source_ip_usage').where('day', '<', day).execute();
  }
}
