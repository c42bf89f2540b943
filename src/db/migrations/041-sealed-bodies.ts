// A sealed message's HTML (txmail's mail carrying a sign-in link: sign-up, reset, invitation) is stored
// encrypted (messages/sealed-content.ts), so that no copy of the database (PostgreSQL's dead tuples and
// WAL, a backup taken before the retention sweep) holds a working link. The flag tells the worker to
// open it before building the message. Older rows have 0: their HTML is plain, and goes at the sweep.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('message_bodies')
    .addColumn('sealed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
