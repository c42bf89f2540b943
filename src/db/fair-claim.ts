// The fair claim: leases due rows of a queue that many tenants share, so that no tenant waits behind
// another's backlog and no group (a webhook endpoint) holds more than its cap of leases at once, across
// every process. A claim round takes each tenant's oldest claimable row in turn (round robin), then each
// tenant's second, and so on; within a tenant and within a group rows go oldest first (FIFO).
//
// The selection costs O(groups with pending rows × cap) index look-ups, however long one group's backlog
// and however many finished rows the table keeps:
//   grp    the groups with pending rows: a loose index scan (one seek per group), since neither dialect
//          skips through an index by itself (PostgreSQL 15 has no skip scan);
//   room   each group's free slots: cap − its unexpired leases;
//   chain  each group's oldest claimable rows, as many as it has room for (at most `limit`): one seek
//          for the first, then one for the row after the previous one (SQLite allows no outer column in
//          LIMIT or OFFSET, so "the first `free` rows" is a recursion);
//   ranked the picks numbered per tenant by due time (ROW_NUMBER, both dialects): the tenant's turn;
//   pick   the first `limit` by (turn, due time).
// It needs three indexes on the queue: (group, due) where due is not null, for the loose scan;
// (group, due, id, until), whose due ranges skip finished rows (due null) in both dialects; and
// (group, until) where owner is not null. The seek for the next row names the group by equality and the
// previous due time as a bound of its own: with a row value alone, SQLite starts at the group's first
// entry and reads through its finished rows.

// The cap must hold when several processes claim at once. SQLite has one writer at a time and the claim
// is one UPDATE, so it sees every lease. On PostgreSQL a statement sees the leases committed before it
// started, so two claims running together could each fill the same group's room: there the claim is a
// transaction that first locks the rows (in `group.table`) of the groups it would take from, skipping
// those another claim holds (FOR NO KEY UPDATE SKIP LOCKED: claims never wait on each other, and inserts
// that reference the group are not blocked), then claims from those groups in a second statement, whose
// snapshot is taken after the locks and so sees every lease of those groups.
//
// Used by the webhook outbox (tenant: the account; group: the endpoint). The delivery queue can use it as
// it is, with the account (or the destination) as group and its table for the locks.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from './database.js';
import type { LeasedTable } from './lease-claim.js';
import type { Database } from './schema.js';

/** A leased queue claimed in turn by tenant, with a cap on the leases of one group. */
export interface FairQueue extends LeasedTable {
  /** Column of the tenant whose turn it is (an account). */
  tenant: string;
  /** Column of the capped group (an endpoint), and the table whose `id` is that column's value. */
  group: { column: string; table: 'webhooks' | 'accounts' };
}

/**
 * Leases up to `limit` due rows to `owner` until `leaseUntil`, one per tenant in turn, never leaving more
 * than `cap` unexpired leases on one group. A row whose lease expired is due again, and its lease no
 * longer counts. Never waits for another claim.
 */
export async function claimFair<Row>(
  db: Kysely<Database>,
  dialect: Dialect,
  q: FairQueue,
  owner: string,
  now: number,
  leaseUntil: number,
  limit: number,
  cap: number,
): Promise<Row[]> {
  if (limit <= 0 || cap <= 0) return [];
  const pick = (groups: string[] | undefined) => fairPick(q, now, limit, cap, groups);
  if (dialect === 'sqlite')
    return (await lease<Row>(q, pick(undefined), owner, now, leaseUntil).execute(db)).rows;
  return db.transaction().execute(async (trx) => {
    const locked = await sql<{ id: string }>`${pick(undefined)}
      select id from ${sql.table(q.group.table)} where id in (select g from pick)
      for no key update skip locked`.execute(trx);
    if (locked.rows.length === 0) return [];
    const groups = locked.rows.map((r) => r.id);
    return (
      await lease<Row>(q, pick(groups), owner, now, leaseUntil, sql`for update skip locked`).execute(trx)
    ).rows;
  });
}

/**
 * The UPDATE that leases the picked rows. The rows are read again under their lock with the claimable
 * condition: on PostgreSQL a row changed by a transaction that committed after this statement's snapshot
 * is checked again in its new version, so a row leased meanwhile is left alone.
 */
function lease<Row>(
  q: FairQueue,
  pick: RawBuilder<unknown>,
  owner: string,
  now: number,
  leaseUntil: number,
  lock: RawBuilder<unknown> = sql``,
): RawBuilder<Row> {
  const table = sql.table(q.table);
  const [due, until] = [sql.ref(q.due), sql.ref(q.until)];
  return sql<Row>`${pick}
    update ${table} set ${sql.ref(q.owner)} = ${owner}, ${until} = ${leaseUntil}
    where id in (select id from ${table}
                 where id in (select id from pick)
                   and ${due} is not null and ${due} <= ${now} and (${until} is null or ${until} <= ${now})
                 ${lock})
    returning *`;
}

/**
 * The WITH clause that ends in `pick(id, g)`: the rows to lease, and their groups. `groups` restricts it
 * to those groups (PostgreSQL's second statement); otherwise every group with pending rows is looked at.
 */
function fairPick(
  q: FairQueue,
  now: number,
  limit: number,
  cap: number,
  groups: string[] | undefined,
): RawBuilder<unknown> {
  const t = sql.table(q.table);
  const [due, holder, until, group, tenant] = [q.due, q.owner, q.until, q.group.column, q.tenant].map((c) =>
    sql.ref(c),
  );
  const o = (c: string) => sql.ref(`o.${c}`);
  // Claimable: due by now, and not leased (or its lease expired).
  const claimable = sql`${o(q.due)} is not null and (${o(q.until)} is null or ${o(q.until)} <= ${now})`;
  // Ordered by (group, due) so that both planners walk the (group, due) index of pending rows, rather
  // than one that also holds every finished row.
  const grp =
    groups === undefined
      ? sql`grp(g) as (
          select (select ${group} from ${t} where ${due} is not null order by ${group}, ${due} limit 1)
          union all
          select (select ${group} from ${t} where ${due} is not null and ${group} > grp.g
                  order by ${group}, ${due} limit 1)
          from grp where grp.g is not null)`
      : sql`grp(g) as (select id from ${sql.table(q.group.table)} where id in (${sql.join(groups)}))`;
  return sql`with recursive ${grp},
    room(g, free) as (
      select g, ${cap} - (select count(*) from ${t}
                          where ${group} = grp.g and ${holder} is not null and ${until} > ${now})
      from grp where g is not null),
    chain(g, free, k, id) as (
      select g, free, 1, (select id from ${t} as o
                          where ${o(q.group.column)} = room.g and ${o(q.due)} <= ${now} and ${claimable}
                          order by ${o(q.group.column)}, ${o(q.due)}, o.id limit 1)
      from room where free > 0
      union all
      select c.g, c.free, c.k + 1, (select o.id from ${t} as o
                          where ${o(q.group.column)} = c.g and ${o(q.due)} <= ${now}
                            and ${o(q.due)} >= ${sql.ref(`p.${q.due}`)}
                            and (${o(q.due)}, o.id) > (${sql.ref(`p.${q.due}`)}, p.id)
                            and ${claimable}
                          order by ${o(q.group.column)}, ${o(q.due)}, o.id limit 1)
      from chain as c join ${t} as p on p.id = c.id
      -- no group gives more than the claim takes: a large cap costs no more seeks
      where c.k < c.free and c.k < ${limit}),
    ranked(id, g, turn, due) as (
      select id, g, row_number() over (partition by tenant order by due, id), due
      from (select c.id, c.g,
                   (select ${tenant} from ${t} where id = c.id) as tenant,
                   (select ${due} from ${t} where id = c.id) as due
            from chain as c where c.id is not null) as picked),
    pick(id, g) as (select id, g from ranked order by turn, due, id limit ${limit})`;
}
