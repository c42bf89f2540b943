// The first-due claim of a leased queue (domain checks): lease up to `limit` due rows to `owner` until
// `leaseUntil`, oldest first, in one statement. (The delivery queue and the webhook outbox, which many
// accounts share, are claimed in turn by account instead: fair-claim.ts.) A row whose lease expired (its holder
// died) is due again. On PostgreSQL, FOR UPDATE SKIP LOCKED lets many processes claim at once without
// waiting on each other; SQLite has one writer at a time, so the statement alone is atomic.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.js';
import type { Database } from './schema.js';

/** A table used as a leased queue, by its column names. */
export interface LeasedTable {
  table: 'messages' | 'webhook_outbox' | 'domains';
  /** When the row is next due; null: not queued. */
  due: string;
  owner: string;
  until: string;
}

export async function claimLeased<Row>(
  db: Kysely<Database>,
  dialect: Dialect,
  t: LeasedTable,
  owner: string,
  now: number,
  leaseUntil: number,
  limit: number,
): Promise<Row[]> {
  const [table, due, holder, until] = [
    sql.table(t.table),
    sql.ref(t.due),
    sql.ref(t.owner),
    sql.ref(t.until),
  ];
  const lock = dialect === 'postgres' ? sql`for update skip locked` : sql``;
  const { rows } = await sql<Row>`
    update ${table} set ${holder} = ${owner}, ${until} = ${leaseUntil}
    where id in (select id from ${table}
                 where ${due} is not null and ${due} <= ${now}
                   and (${until} is null or ${until} <= ${now})
                 order by ${due} limit ${limit} ${lock})
    returning *`.execute(db);
  return rows;
}
