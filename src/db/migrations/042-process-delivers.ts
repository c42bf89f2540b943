// Whether a live process delivers mail (runs the worker role): the worker processes share each
// destination's connection and rate limits between them (process-registry.ts deliveryWorkers,
// delivery/destination-limits.ts `share`). Rows of processes started before this say 0: counted as
// not delivering until they restart.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('processes')
    .addColumn('delivers', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
