// The fair claim of the webhook outbox and of the delivery queue: leases due rows of a queue that many
// tenants (accounts) share, so that no tenant waits behind another's backlog or slow groups (endpoints;
// the delivery queue's group is the account itself). Two caps hold across every process: a group holds
// at most `perGroup` unexpired leases, a tenant at most `perTenant` over all its groups. The turn is
// stateless: a tenant's k-th pick in a claim ranks at (its leases now + k), so the tenant holding the
// fewest leases goes first, its oldest due row first; a claim of one slot (a busy dispatcher claims as
// each push ends) gives that slot to the tenant holding the fewest, not to the one with the oldest
// backlog. A queue may weigh tenants (the delivery queue, by plan): the rank is then divided by the
// tenant's share, so a tenant with share 4 gets four picks for every one of a tenant with share 1 while
// both have work. Within a tenant and within a group rows go oldest first (FIFO).
//
// The selection costs O(groups with pending rows × their room) index look-ups, however long one group's
// backlog and however many finished rows the table keeps:
//   grp    the groups with pending rows: a loose index scan (one seek per group), since neither dialect
//          skips through an index by itself (PostgreSQL 15 has no skip scan);
//   room   each group's free slots: its cap − its unexpired leases;
//   head   each group's oldest claimable row, when it has room;
//   held   the unexpired leases of each tenant that has a head (both read twice: MATERIALIZED, or SQLite
//          would compute them again for each reader);
//   chain  each group's oldest claimable rows, as many as both the group and its tenant have room for
//          (and at most `limit`): on SQLite the head, then one seek for the row after the previous one
//          (SQLite allows no outer column in LIMIT or OFFSET, so "the first `free` rows" is a
//          recursion); on PostgreSQL one index range per group (LATERAL … LIMIT);
//   ranked the picks numbered per tenant by due time (ROW_NUMBER, both dialects) after its leases: the
//          rank; divided by the tenant's share: the turn;
//   pick   the first `limit` by (turn, due time), none ranked past the tenant's cap.
// It needs four indexes on the queue: (group, due) where due is not null, for the loose scan; (group,
// due, id, until), whose due ranges skip finished rows (due null) in both dialects; and (group, until)
// and (tenant, until) where owner is not null, for the counts of leases. The seek for the next row names
// the group by equality and the previous due time as a bound of its own: with a row value alone, SQLite
// starts at the group's first entry and reads through its finished rows. When the group is the tenant
// (the delivery queue), one index (group, due, id, until) where due is not null serves both of the first
// two (a bound on the due time implies it is not null), and the two counts of leases are one index.

// The caps must hold when several processes claim at once. SQLite has one writer at a time and the claim
// is one UPDATE, so it sees every lease. On PostgreSQL a statement sees the leases committed before it
// started, so two claims running together could each fill the same room: there the claim is a
// transaction that first locks the rows of the tenants and groups it would take from (in their tables),
// skipping those another claim holds (FOR NO KEY UPDATE SKIP LOCKED: claims never wait on each other, and
// inserts that reference those rows are not blocked), then claims from those groups in a second
// statement, whose snapshot is taken after the locks and so sees every lease of those tenants and groups.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from './database.js';
import type { LeasedTable } from './lease-claim.js';
import type { Database } from './schema.js';

/** A leased queue claimed in turn by tenant, with caps on the leases of a group and of a tenant. */
export interface FairQueue extends LeasedTable {
  /**
   * Column of the tenant whose turn it is (an account), and the table whose `id` is its value. `share`:
   * the tenant's weight, a positive number computed from its row in that table (aliased `tt`); every
   * tenant's is 1 without it.
   */
  tenant: { column: string; table: 'accounts'; share?: RawBuilder<number> };
  /**
   * Column of the capped group (a webhook endpoint), and the table whose `id` is that column's value.
   * The group may be the tenant itself (the delivery queue: one group per account).
   */
  group: { column: string; table: 'webhooks' | 'accounts' };
}

/** A cap that never binds: a group or tenant with it is not counted against one. */
export const UNCAPPED = 2 ** 31 - 1;

/** Unexpired leases allowed at once, across every process (UNCAPPED: no cap). */
export interface FairCaps {
  perGroup: number;
  perTenant: number;
}

/**
 * Leases up to `limit` due rows to `owner` until `leaseUntil`, the tenants holding the fewest leases
 * first, never leaving more than `caps.perGroup` unexpired leases on one group nor `caps.perTenant` on one
 * tenant. A row whose lease expired is due again, and its lease no longer counts. Never waits for another
 * claim. `answer` (PostgreSQL only): the SELECT that answers the claim from the rows it leased, named
 * `leased`, in the claim's own statement (the delivery queue adds each message's body); without it, the
 * leased rows themselves.
 */
export async function claimFair<Row>(
  db: Kysely<Database>,
  dialect: Dialect,
  q: FairQueue,
  owner: string,
  now: number,
  leaseUntil: number,
  limit: number,
  caps: FairCaps,
  answer?: RawBuilder<unknown>,
): Promise<Row[]> {
  if (limit <= 0 || caps.perGroup <= 0 || caps.perTenant <= 0) return [];
  const pick = (groups: string[] | undefined) => fairPick(dialect, q, now, limit, caps, groups);
  if (dialect === 'sqlite') {
    // SQLite has no UPDATE inside WITH: a caller that needs more than the rows reads it itself.
    if (answer) throw new Error("a claim's answer is for PostgreSQL only");
    return (await claimFairSqlite<Row>(q, owner, now, leaseUntil, limit, caps).execute(db)).rows;
  }
  return db.transaction().execute(async (trx) => {
    // The counts of leases read a partial index of leased rows, whose entries of ended leases stay until
    // vacuum. A bitmap scan, which the planner picks for a few dozen rows, reads every one of them each
    // time; a plain index scan marks them dead on its first pass and skips them after (during a burst,
    // thousands of ended leases between two vacuums made each count cost milliseconds).
    await sql`set local enable_bitmapscan = off`.execute(trx);
    const locked = await sql<{ id: string }>`${pick(undefined)},
      tenant_locked(id) as (select id from ${sql.table(q.tenant.table)} where id in (select tn from pick)
                            for no key update skip locked)
      select id from ${sql.table(q.group.table)}
      where id in (select g from pick where tn in (select id from tenant_locked))
      for no key update skip locked`.execute(trx);
    if (locked.rows.length === 0) return [];
    const groups = locked.rows.map((r) => r.id);
    return (
      await lease<Row>(q, pick(groups), owner, now, leaseUntil, sql`for update skip locked`, answer).execute(
        trx,
      )
    ).rows;
  });
}

/**
 * The claim on SQLite as one statement, for a caller that runs it itself (a cached prepared statement:
 * one text per number of slots, the rest of its values parameters; see pickLimit). One writer at a time
 * and one statement: it sees every lease, so the caps hold without locks. `limit` and the caps must be
 * positive.
 */
export function claimFairSqlite<Row>(
  q: FairQueue,
  owner: string,
  now: number,
  leaseUntil: number,
  limit: number,
  caps: FairCaps,
): RawBuilder<Row> {
  return lease<Row>(q, fairPick('sqlite', q, now, limit, caps, undefined), owner, now, leaseUntil);
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
  answer?: RawBuilder<unknown>,
): RawBuilder<Row> {
  const table = sql.table(q.table);
  const [due, until] = [sql.ref(q.due), sql.ref(q.until)];
  const update = sql`update ${table} set ${sql.ref(q.owner)} = ${owner}, ${until} = ${leaseUntil}
    where id in (select id from ${table}
                 where id in (select id from pick)
                   and ${due} is not null and ${due} <= ${now} and (${until} is null or ${until} <= ${now})
                 ${lock})
    returning *`;
  // The UPDATE as one more WITH clause (PostgreSQL), answered by `answer`.
  return answer ? sql<Row>`${pick}, leased as (${update}) ${answer}` : sql<Row>`${pick} ${update}`;
}

/**
 * The WITH clause that ends in `pick(id, g, tn)`: the rows to lease, their groups and their tenants.
 * `groups` restricts it to those groups (PostgreSQL's second statement); otherwise every group with
 * pending rows is looked at.
 */
function fairPick(
  dialect: Dialect,
  q: FairQueue,
  now: number,
  limit: number,
  caps: FairCaps,
  groups: string[] | undefined,
): RawBuilder<unknown> {
  const t = sql.table(q.table);
  const [due, holder, until, group, tenant] = [q.due, q.owner, q.until, q.group.column, q.tenant.column].map(
    (c) => sql.ref(c),
  );
  const o = (c: string) => sql.ref(`o.${c}`);
  const r = (c: string) => sql.ref(`r.${c}`);
  // Claimable: due by now, and not leased (or its lease expired).
  const claimable = sql`${o(q.due)} is not null and (${o(q.until)} is null or ${o(q.until)} <= ${now})`;
  const leased = sql`${holder} is not null and ${until} > ${now}`;
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
  const tenantRoom = sql`${caps.perTenant} - held.n`;
  // An uncapped group (the delivery queue's, which is also its tenant) needs no count of its leases.
  const groupCapped = caps.perGroup < UNCAPPED;
  const groupLeases = groupCapped
    ? sql`(select count(*) from ${t} where ${group} = grp.g and ${leased})`
    : sql`0`;
  const share = q.tenant.share
    ? sql`(select ${q.tenant.share} from ${sql.table(q.tenant.table)} as tt where tt.id = h.tn)`
    : sql`1`;
  // SQLite: each group's rows one seek at a time (no outer column allowed in LIMIT); PostgreSQL: one
  // range of the index per group (LATERAL), which costs it a fraction of the seeks and joins.
  const chainRecursive = sql`chain(g, free, k, id) as (
      select head.g, case when head.free < ${tenantRoom} then head.free else ${tenantRoom} end, 1, head.id
      from head join held on held.tn = head.tn
      where held.n < ${caps.perTenant}
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
    -- the rank of a tenant's k-th pick: its leases now + k, so the tenant holding the fewest goes first
    numbered(id, g, tn, share, rank, due) as (
      select id, g, tn, share, n + row_number() over (partition by tn order by due, id), due
      from (select c.id, c.g, held.tn, held.n, held.share, ${r(q.due)} as due
            from chain as c join ${t} as r on r.id = c.id
            join held on held.tn = ${r(q.tenant.column)}) as picked)`;
  const chainLateral = sql`chain(g, tn, id, due) as (
      select head.g, head.tn, x.id, x.due
      from head join held on held.tn = head.tn
      cross join lateral (select o.id, ${o(q.due)} as due from ${t} as o
                          where ${o(q.group.column)} = head.g and ${o(q.due)} <= ${now} and ${claimable}
                          order by ${o(q.group.column)}, ${o(q.due)}, o.id
                          limit least(head.free, ${tenantRoom}, ${limit})) as x
      where held.n < ${caps.perTenant}),
    -- the rank of a tenant's k-th pick: its leases now + k, so the tenant holding the fewest goes first
    numbered(id, g, tn, share, rank, due) as (
      select c.id, c.g, c.tn, held.share, held.n + row_number() over (partition by c.tn order by c.due, c.id),
        c.due
      from chain as c join held on held.tn = c.tn)`;
  return sql`with recursive ${grp},
    room(g, free) as (
      select g, ${caps.perGroup} - ${groupLeases}
      from grp where g is not null),
    -- each group's head, then its tenant read by its id in a subquery (as a join, SQLite read every row
    -- of the tenant, finished ones too, through another index to find it); apart, so that PostgreSQL
    -- seeks each head once rather than once for each place the subquery appears
    first(g, free, id) as materialized (
      select g, free, (select id from ${t} as o
                       where ${o(q.group.column)} = room.g and ${o(q.due)} <= ${now} and ${claimable}
                       order by ${o(q.group.column)}, ${o(q.due)}, o.id limit 1)
      from room where free > 0),
    head(g, free, id, tn) as materialized (
      select g, free, id, (select ${r(q.tenant.column)} from ${t} as r where r.id = first.id)
      from first where id is not null),
    held(tn, n, share) as materialized (
      select tn, (select count(*) from ${t} where ${tenant} = h.tn and ${leased}), ${share}
      from (select distinct tn from head) as h),
    ${dialect === 'postgres' ? chainLateral : chainRecursive},
    -- its turn: the rank over the tenant's share (the rank itself when tenants are not weighed)
    ranked(id, g, tn, rank, turn, due) as (
      select id, g, tn, rank, ${q.tenant.share ? sql`rank * 1.0 / share` : sql`rank`}, due from numbered),
    pick(id, g, tn) as (
      select id, g, tn from ranked where rank <= ${caps.perTenant} order by turn, due, id
      limit ${dialect === 'sqlite' ? pickLimit(limit) : limit})`;
}

/**
 * The pick's LIMIT on SQLite, written into the text. SQLite's planner reads the value bound to a LIMIT
 * in a subquery, and a statement whose plan read a parameter's value is prepared again whenever that
 * parameter is bound: the worker's cached claim statement was parsed and planned anew at every claim,
 * 0.18 ms of a 0.22 ms pick here (`sqlite3Reprepare` in a profile). One text per number of slots
 * (at most the worker's concurrency) keeps each prepared once.
 */
function pickLimit(limit: number): RawBuilder<unknown> {
  if (!Number.isSafeInteger(limit) || limit <= 0)
    throw new Error(`a claim's limit must be a positive integer: ${limit}`);
  return sql.lit(limit);
}

/**
 * The claimed rows in the order of their turns (an UPDATE returns its rows in no set order): each
 * tenant's k-th row (by due time, then id) after every tenant's (k−1)-th, and among equal k the older
 * first. A worker that starts its deliveries in this order lets another tenant's message be the first
 * to wait for a shared resource (a destination's connections), not the last behind a backlog's.
 */
export function inTurn<Row extends { id: string }>(
  rows: Row[],
  tenant: (row: Row) => string,
  due: (row: Row) => number,
): Row[] {
  const byDue = [...rows].sort((x, y) => due(x) - due(y) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const seen = new Map<string, number>();
  const k = new Map<Row, number>();
  for (const r of byDue) {
    const n = (seen.get(tenant(r)) ?? 0) + 1;
    seen.set(tenant(r), n);
    k.set(r, n);
  }
  // A stable sort: equal turns keep the due order.
  return byDue.sort((x, y) => k.get(x)! - k.get(y)!);
}
