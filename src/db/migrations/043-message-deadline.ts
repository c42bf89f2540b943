// A message's deadline stored with it (ARCHITECTURE.md, "Expiry"): its sending domain's expire_after
// after its acceptance, written by the accept path, rewritten for the domain's waiting mail when the
// setting changes; null: the default retry period. Stored so that the claim can put an account's mail
// with a deadline ahead of its other mail (db/queue-repo.ts laneFirst), and so that a pass can fail
// mail past its deadline that no delivery reached (QueueRepo.claimExpired), neither of which can read
// every domain's setting per row. On PostgreSQL the migration holds the messages table locked while it
// fills the column and builds the two indexes (docs/upgrading.md).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('messages').addColumn('deadline_at', 'bigint').execute();
  // Waiting mail accepted before this keeps the deadline the worker read for it until now; only the
  // mail of domains with an expire_after is written.
  await sql`update messages set deadline_at = created_at + (
              select d.expire_after * 1000 from domains as d
              where d.account_id = messages.account_id and d.name = messages.from_domain)
            where next_attempt_at is not null
              and exists (select 1 from domains as d
                          where d.account_id = messages.account_id and d.name = messages.from_domain
                            and d.expire_after is not null)`.execute(db);
  // An account's waiting mail with a deadline by due time (queue-record.ts deadlineLaneStatement): the
  // same shape as messages_account_due (migration 016), holding only waiting mail that has a deadline.
  await db.schema
    .createIndex('messages_account_due_deadline')
    .on('messages')
    .columns(['account_id', 'next_attempt_at', 'id', 'lease_expires_at'])
    .where((eb) =>
      eb.and([eb(sql.ref('next_attempt_at'), 'is not', null), eb(sql.ref('deadline_at'), 'is not', null)]),
    )
    .execute();
  // The expiry pass: waiting mail by deadline, across accounts.
  await db.schema
    .createIndex('messages_deadline')
    .on('messages')
    .columns(['deadline_at'])
    .where((eb) =>
      eb.and([eb(sql.ref('next_attempt_at'), 'is not', null), eb(sql.ref('deadline_at'), 'is not', null)]),
    )
    .execute();
}
