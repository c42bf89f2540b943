// Fair delivery claim (db/fair-claim.ts, with the account as tenant and group; db/queue-repo.ts): the
// indexes that keep the claim's cost to a few seeks per account with messages waiting, however long one
// account's backlog and however many delivered messages the table keeps.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // An account's waiting messages by due time, with the lease's end so that a claim reads no row it
  // does not take. Partial: only waiting messages (due time not null), so it stays as small as the
  // queue; it serves both the loose scan of the accounts with waiting messages and each account's
  // oldest claimable ones (a bound on the due time implies it is not null, which both SQLite and
  // PostgreSQL prove, so they use the partial index).
  await db.schema
    .createIndex('messages_account_due')
    .on('messages')
    .columns(['account_id', 'next_attempt_at', 'id', 'lease_expires_at'])
    .where(sql.ref('next_attempt_at'), 'is not', null)
    .execute();
  // An account's leases: how many of its messages are in delivery (its turn). Few rows: a lease ends
  // with its record.
  await db.schema
    .createIndex('messages_account_leased')
    .on('messages')
    .columns(['account_id', 'lease_expires_at'])
    .where(sql.ref('lease_owner'), 'is not', null)
    .execute();
}
