// Fair webhook dispatch (db/fair-claim.ts): the indexes that keep the claim cheap with a long backlog on
// one endpoint, and the mark of a replay, so an endpoint's pending replays can be counted (and capped).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // 1 for a push queued by a replay (`<event>:<webhook>:<replay>`), 0 for one queued with its event.
  await db.schema
    .alterTable('webhook_outbox')
    .addColumn('replay', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // The endpoints with pending pushes, one seek each (the claim's loose index scan): pending rows only.
  await db.schema
    .createIndex('webhook_outbox_pending_endpoint')
    .on('webhook_outbox')
    .columns(['webhook_id', 'next_attempt_at'])
    .where(sql.ref('next_attempt_at'), 'is not', null)
    .execute();
  // An endpoint's pushes by due time (finished ones, whose time is null, out of every range the claim
  // reads), with the lease's end so that a claim reads no row it does not take. It replaces the plain
  // index on webhook_id (deleting an endpoint still finds its rows by the first column); with both, the
  // PostgreSQL planner walked every row of an endpoint through the plain one when the table was small.
  await db.schema
    .createIndex('webhook_outbox_endpoint_due')
    .on('webhook_outbox')
    .columns(['webhook_id', 'next_attempt_at', 'id', 'lease_expires_at'])
    .execute();
  await db.schema.dropIndex('webhook_outbox_webhook').execute();
  // An endpoint's leases: how many of its pushes are in flight. Few rows: a lease ends with its record.
  await db.schema
    .createIndex('webhook_outbox_endpoint_leased')
    .on('webhook_outbox')
    .columns(['webhook_id', 'lease_expires_at'])
    .where(sql.ref('lease_owner'), 'is not', null)
    .execute();
  // An endpoint's pending replays, counted before another is queued (at most the cap of them). Both
  // columns, so that it covers the count and SQLite, which keeps no statistics here, prefers it to the
  // indexes above (which would read every pending push of the endpoint).
  await db.schema
    .createIndex('webhook_outbox_endpoint_replays')
    .on('webhook_outbox')
    .columns(['webhook_id', 'next_attempt_at'])
    .where((eb) =>
      eb.and([eb(sql.ref('replay'), '=', sql.lit(1)), eb(sql.ref('next_attempt_at'), 'is not', null)]),
    )
    .execute();
}
