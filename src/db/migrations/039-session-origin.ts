// Where each dashboard session was started: the client's address and its browser's User-Agent (cut
// to 256 characters), so that the Security and Members pages can tell one session from another
// ("Firefox on Linux, 203.0.113.7") before ending it. Older rows have neither.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('ip', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
}
