// The category of a message's latest failure, delay or complaint (bounce/categories.ts), kept on the
// message so that the log can be filtered by it (GET /api/emails?category=) without reading events.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Null until an event carrying a category is recorded; older messages stay null (no event before
  // this migration carried one).
  await db.schema.alterTable('messages').addColumn('category', 'text').execute();
  // The log filtered by category, newest first. Partial: most messages never fail, and a query naming
  // a category implies it is not null (both SQLite and PostgreSQL prove that and use the index).
  await db.schema
    .createIndex('messages_account_category')
    .on('messages')
    .columns(['account_id', 'category', 'id'])
    .where(sql.ref('category'), 'is not', null)
    .execute();
}
