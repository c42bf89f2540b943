// The audit log's rows (migration 029; audit/audit.ts): written once, read newest first, deleted by the
// retention sweeper past the plan's log retention.
import type { Kysely } from 'kysely';
import type { AuditLogRow, Database } from './schema.js';

export class AuditRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: AuditLogRow): Promise<void> {
    await this.db.insertInto('audit_log').values(row).execute();
  }

  /** The account's entries, newest first (ids are UUIDv7: they sort by time), before `cursor` if given. */
  async list(accountId: string, limit: number, cursor?: string): Promise<AuditLogRow[]> {
    let q = this.db
      .selectFrom('audit_log')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id', 'desc')
      .limit(limit);
    if (cursor !== undefined) q = q.where('id', '<', cursor);
    return q.execute();
  }
}
