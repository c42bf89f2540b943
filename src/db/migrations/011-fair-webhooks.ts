// Fair webhook dispatch (db/fair-claim.ts): the indexes that keep the claim cheap with a long backlog on
// one endpoint, and the mark of a replay, so an endpoint's pending replays can be counted (and capped).
// Numbered 011: 010 belongs to other work landing in parallel.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // 1 for a push queued by a replay (`<event>:<webhook>:<replay>`), 0 for one queued with its event.
  await db.schema
    .alterTable('webhook_outbox')
    .addColumn('replay', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  // An endpoint's pending pushes, oldest first: the claim's seeks (the next endpoint with pending pushes,
  // then that endpoint's oldest claimable ones).
  await db.schema
    .createIndex('webhook_outbox_endpoint_due')
    .on('webhook_outbox')
    .columns(['webhook_id', 'next_attempt_at', 'id'])
    .where(sql.ref('next_attempt_at'), 'is not', null)
    .execute();
  // An endpoint's leases: how many of its pushes are in flight. Few rows: a lease ends with its record.
  await db.schema
    .createIndex('webhook_outbox_endpoint_leased')
    .on('webhook_outbox')
    .columns(['webhook_id', 'lease_expires_at'])
    .where(sql.ref('lease_owner'), 'is not', null)
    .execute();
  // An endpoint's pending replays, counted before another is queued (at most the cap of them).
  await db.schema
    .createIndex('webhook_outbox_endpoint_replays')
    .on('webhook_outbox')
    .column('webhook_id')
    .where((eb) =>
      eb.and([eb(sql.ref('replay'), '=', sql.lit(1)), eb(sql.ref('next_attempt_at'), 'is not', null)]),
    )
    .execute();
}
