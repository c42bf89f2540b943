// The audit log's rows (migration 029; audit/audit.ts): written once, read newest first, deleted by the
// retention sweeper past the plan's log retention.
import type { Kysely } from 'kysely';
import type { AuditLogRow, Database } from './schema.js';

/** The kinds of target a route names by its `:id` (audit/target-label.ts). */
export type AuditTargetKind = 'api_key' | 'domain' | 'webhook' | 'member';

/** What a target is called, as its table holds it: the parts audit/target-label.ts makes a label of. */
export interface AuditTargetFacts {
  name?: string;
  prefix?: string;
  url?: string;
  description?: string;
  email?: string;
  /** A member's role. */
  role?: string;
}

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

  /** What the account's target `id` of `kind` is called now; undefined when the account has none such. */
  async targetFacts(
    accountId: string,
    kind: AuditTargetKind,
    id: string,
  ): Promise<AuditTargetFacts | undefined> {
    switch (kind) {
      case 'api_key':
        return this.db
          .selectFrom('api_keys')
          .select(['name', 'prefix'])
          .where('account_id', '=', accountId)
          .where('id', '=', id)
          .executeTakeFirst();
      case 'domain':
        return this.db
          .selectFrom('domains')
          .select(['name'])
          .where('account_id', '=', accountId)
          .where('id', '=', id)
          .executeTakeFirst();
      case 'webhook':
        return this.db
          .selectFrom('webhooks')
          .select(['url', 'description'])
          .where('account_id', '=', accountId)
          .where('id', '=', id)
          .executeTakeFirst();
      case 'member':
        return this.db
          .selectFrom('members')
          .select(['email', 'role'])
          .where('account_id', '=', accountId)
          .where('id', '=', id)
          .executeTakeFirst();
    }
  }
}
