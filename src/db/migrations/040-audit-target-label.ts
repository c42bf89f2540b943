// What an audit entry's target was called when the change was made (audit/target-label.ts): a revoked
// key, a deleted domain, webhook endpoint or member is still named in the log. Older rows have none
// (the dashboard names their targets by the account's lists, as before).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('target_label', 'text').execute();
}
