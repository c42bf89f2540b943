// A sending domain's expiry for its mail (docs/API.md, Domains: expire_after): seconds after a
// message's acceptance when txmail stops trying it. Null: the default retry period (two days).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('domains').addColumn('expire_after', 'integer').execute();
}
