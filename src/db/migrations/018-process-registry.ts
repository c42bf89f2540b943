// The registry of live processes (process-registry.ts, ARCHITECTURE.md "Durability"): each process that
// holds leases (worker, inbound, serve) has a row here that its heartbeat keeps fresh; a lease whose owner
// has stopped beating is released by any live process's sweeper, so a process killed with `kill -9`
// keeps its messages, pushes, reports and domain checks for seconds, not for the long lease.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('processes')
    // The lease owner id every lease this process takes carries.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    // When the operating system started the process (ms): tells a restarted process with a reused pid
    // (a container's pid 1) from the one that registered.
    .addColumn('boot', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('heartbeat_at', 'bigint', (c) => c.notNull())
    .execute();
  // Inbound reports get an owner like the other leases, so a dead receiver's are released too.
  await db.schema.alterTable('inbound_messages').addColumn('lease_owner', 'text').execute();
  // The sweeper releases one owner's leases per table: one seek each, on small partial indexes (a lease
  // ends with its record, so few rows hold one).
  for (const [table, column] of [
    ['messages', 'lease_owner'],
    ['webhook_outbox', 'lease_owner'],
    ['inbound_messages', 'lease_owner'],
    ['domains', 'check_lease_owner'],
  ] as const) {
    await db.schema
      .createIndex(`${table}_by_lease_owner`)
      .on(table)
      .column(column)
      .where(sql.ref(column), 'is not', null)
      .execute();
  }
}
