// Fair webhook dispatch per account (db/fair-claim.ts): the claim counts each account's pushes in flight,
// to serve the account holding the fewest first and to hold every account to its cap.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // An account's leases, one range each. Few rows: a lease ends with its record.
  await db.schema
    .createIndex('webhook_outbox_account_leased')
    .on('webhook_outbox')
    .columns(['account_id', 'lease_expires_at'])
    .where(sql.ref('lease_owner'), 'is not', null)
    .execute();
}
