// TLS policy (ARCHITECTURE.md, "TLS policy"): a sending domain's `tls` setting, and what each delivery
// attempt's session negotiated. Old rows stay valid: the domain setting defaults to opportunistic, the
// attempt's details are null (not recorded then) and its fallback flag 0.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('domains')
    .addColumn('tls', 'text', (c) => c.notNull().defaultTo('opportunistic'))
    .execute();
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  for (const column of [
    'tls_version',
    'tls_cipher',
    'tls_certificate',
    'tls_certificate_error',
    'tls_policy',
  ])
    await db.schema.alterTable('delivery_attempts').addColumn(column, 'text').execute();
  await db.schema
    .alterTable('delivery_attempts')
    .addColumn('tls_fallback', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
