// The registry of live processes (018-process-registry.ts): rows kept fresh by each process's heartbeat,
// and the release of a dead owner's leases in every table that holds leases.
import type { Kysely } from 'kysely';
import type { Database, ProcessesTable } from './schema.js';

export type ProcessRow = ProcessesTable;

/** How many leases of each kind a sweep gave back. */
export interface Released {
  messages: number;
  webhookPushes: number;
  inboundReports: number;
  domainChecks: number;
}

export class ProcessesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async register(row: ProcessRow): Promise<void> {
    await this.db.insertInto('processes').values(row).execute();
  }

  /** Returns false when the row is gone (another process found this one dead and swept it). */
  async heartbeat(id: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('processes')
      .set({ heartbeat_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  }

  /** Marks the process as one that delivers mail (process-registry.ts deliversMail). */
  async setDelivers(id: string): Promise<void> {
    await this.db.updateTable('processes').set({ delivers: 1 }).where('id', '=', id).execute();
  }

  async all(): Promise<ProcessRow[]> {
    return this.db.selectFrom('processes').selectAll().execute();
  }

  /**
   * Gives back every lease `owner` holds, in each table, and removes its row, in one transaction: a
   * process seen dead never keeps some of its leases. Each UPDATE is one seek on a partial index of the
   * owners (018-process-registry.ts), so the hot claim statements are unchanged.
   */
  async releaseOwner(owner: string): Promise<Released> {
    return this.db.transaction().execute(async (trx) => {
      const messages = await trx
        .updateTable('messages')
        .set({ lease_owner: null, lease_expires_at: null })
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      const pushes = await trx
        .updateTable('webhook_outbox')
        .set({ lease_owner: null, lease_expires_at: null })
        .where('lease_owner', '=', owner)
        .executeTakeFirst();
      const inbound = await trx
        .updateTable('inbound_messages')
        .set({ lease_owner: null, lease_expires_at: null })
        .where('lease_owner', '=', owner)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      const domains = await trx
        .updateTable('domains')
        .set({ check_lease_owner: null, check_lease_until: null })
        .where('check_lease_owner', '=', owner)
        .executeTakeFirst();
      await trx.deleteFrom('processes').where('id', '=', owner).execute();
      return {
        messages: Number(messages.numUpdatedRows),
        webhookPushes: Number(pushes.numUpdatedRows),
        inboundReports: Number(inbound.numUpdatedRows),
        domainChecks: Number(domains.numUpdatedRows),
      };
    });
  }
}
