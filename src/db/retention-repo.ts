// Deleting what is past its retention: messages with their events, delivery attempts and webhook
// pushes (cascading foreign keys), the webhook attempt log, the audit log; and what has expired: sessions, login
// devices, used or expired one-time tokens, idempotency keys, attempt counts, test-send counters of
// past days, destination blocks' records past their window or pause. Every delete takes a bounded
// batch.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, Plan } from './schema.js';
import { firstIdAt } from '../ids.js';
import { INBOUND_RAW_PARTS, MESSAGE_BODY_PARTS, type PartsTables } from './sqlite/parts-store.js';

/** Where parts and their pending list are (parts-store.ts), and the table that holds their stored owners. */
type OrphanParts = PartsTables & { stored: 'message_bodies' | 'inbound_raw' };
const ORPHAN_BODY_PARTS: OrphanParts = { ...MESSAGE_BODY_PARTS, stored: 'message_bodies' };
const ORPHAN_INBOUND_RAW_PARTS: OrphanParts = { ...INBOUND_RAW_PARTS, stored: 'inbound_raw' };

/**
 * Bytes of content (HTML, its parts, the raw message) one transaction that removes messages or their
 * content frees at most, past its first message. Freeing a body's pages costs the writer about a
 * millisecond a megabyte, and in `txmail serve` the writer is the event loop: 500 messages of 10 MiB in
 * one statement held it for about four seconds.
 */
export const CONTENT_BYTES_PER_BATCH = 16 * 1024 * 1024;

/** Bytes a part of a large HTML counts for: at most 128 Ki UTF-16 units, 256 KiB of UTF-8 for most text. */
const PART_BYTES = 256 * 1024;

/** A batch of a remover that bounds its transactions by weight: how many went, and whether more wait. */
export interface RemovedBatch {
  removed: number;
  more: boolean;
}

/**
 * The longest prefix of `rows` whose bytes add up to at most `budget`, and never less than the first
 * row (a message larger than the budget goes alone).
 */
export function prefixWithin<T extends { bytes: number }>(rows: T[], budget: number): T[] {
  let total = 0;
  let n = 0;
  for (const row of rows) {
    total += row.bytes;
    if (n > 0 && total > budget) break;
    n++;
  }
  return rows.slice(0, n);
}

export class RetentionRepo {
  /** `erased`: told after content was removed, to erase what the database's files still keep (Db.erased). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly erased: () => void = () => undefined,
  ) {}

  /** Accounts on these plans, in pages (by id, after `afterId`). */
  async accountsOnPlans(plans: Plan[], afterId: string, limit: number): Promise<string[]> {
    if (plans.length === 0) return [];
    const rows = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('plan', 'in', plans)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Deletes up to `limit` of the account's messages created before `before` that are no longer in the
   * delivery queue (a message still being retried is kept until it ends), fewer when their content
   * passes CONTENT_BYTES_PER_BATCH. Answers how many went, and whether more are waiting.
   */
  async deleteMessages(accountId: string, before: number, limit: number): Promise<RemovedBatch> {
    return this.db.transaction().execute(async (trx) => {
      // The batch chosen once: its messages and the parts of their large HTML, which have no foreign key
      // (db/sqlite/body-parts.ts), go together.
      const candidates = (
        await trx
          .selectFrom('messages')
          .select('id')
          .where('account_id', '=', accountId)
          .where('created_at', '<', before)
          .where('next_attempt_at', 'is', null)
          .limit(limit)
          .execute()
      ).map((r) => r.id);
      const ids = await withinBudget(trx, candidates);
      if (ids.length === 0) return { removed: 0, more: false };
      await trx.deleteFrom('message_body_parts').where('message_id', 'in', ids).execute();
      const r = await trx.deleteFrom('messages').where('id', 'in', ids).executeTakeFirst();
      return batchOf(Number(r.numDeletedRows), ids, candidates, limit);
    });
  }

  /**
   * Deletes the parts of up to `limit` large HTMLs whose message was never stored (its accept refused
   * it or was interrupted: db/sqlite/body-parts.ts), made before `before`. Answers how many HTMLs went.
   */
  deleteOrphanBodyParts(before: number, limit: number): Promise<number> {
    return this.deleteOrphanParts(ORPHAN_BODY_PARTS, before, limit);
  }

  /**
   * Deletes the parts of up to `limit` large inbound raw texts whose message was never stored (its
   * client's budget refused it, or the store was interrupted: db/inbound-repo.ts), made before
   * `before`. Answers how many raw texts went.
   */
  deleteOrphanInboundRawParts(before: number, limit: number): Promise<number> {
    return this.deleteOrphanParts(ORPHAN_INBOUND_RAW_PARTS, before, limit);
  }

  /**
   * Parts whose owner was never stored, made before `before`: an owner's id tells when it was made
   * (UUIDv7), and its parts are written within moments of that. Reads the pending list (migrations 037
   * and 038), not the parts: those of every stored owner would be scanned at every pass.
   */
  private async deleteOrphanParts(t: OrphanParts, before: number, limit: number): Promise<number> {
    const owner = sql.ref(t.owner);
    const { rows } = await sql<{ id: string }>`
      select ${owner} as id from ${sql.table(t.pending)} where ${owner} < ${firstIdAt(before)} limit ${limit}
    `.execute(this.db);
    if (rows.length === 0) return 0;
    const ids = sql.join(rows.map((r) => r.id));
    return this.db.transaction().execute(async (trx) => {
      // An owner stored after all keeps its parts (its store also takes it off the list).
      await sql`
        delete from ${sql.table(t.parts)} where ${owner} in (
          select p.${owner} from ${sql.table(t.pending)} p where p.${owner} in (${ids})
          and not exists (select 1 from ${sql.table(t.stored)} s where s.${owner} = p.${owner}))
      `.execute(trx);
      const r = await sql`delete from ${sql.table(t.pending)} where ${owner} in (${ids})`.execute(trx);
      return Number(r.numAffectedRows ?? 0);
    });
  }

  /** Accounts that remove content after some days (content_retention_days set), in pages by id. */
  async accountsRemovingContent(afterId: string, limit: number): Promise<{ id: string; days: number }[]> {
    const rows = await this.db
      .selectFrom('accounts')
      .select(['id', 'content_retention_days'])
      .where('content_retention_days', 'is not', null)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, days: r.content_retention_days! }));
  }

  /** When content retention began on this database (migration 032); undefined: with the database. */
  async contentRetentionSince(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('upgrade_marks')
      .select('at')
      .where('name', '=', 'content_retention')
      .executeTakeFirst();
    return row?.at;
  }

  /**
   * Removes the content (the HTML and the raw bytes) of up to `limit` of the account's messages that
   * have been final since before `final.before` (and not before `final.from`, when given: updated_at,
   * as a final message changes only for a later report) and still have it, fewer when it passes
   * CONTENT_BYTES_PER_BATCH; the rest of the message stays. Answers how many, and whether more wait.
   * The batch is found by the partial index messages_content_kept (migration 026).
   */
  async removeContent(
    accountId: string,
    final: { from: number | undefined; before: number },
    now: number,
    limit: number,
  ): Promise<RemovedBatch> {
    const { from } = final;
    const candidates = (
      await this.db
        .selectFrom('messages')
        .select('id')
        .where('account_id', '=', accountId)
        .where('content_removed_at', 'is', null)
        .where('next_attempt_at', 'is', null)
        .where('updated_at', '<', final.before)
        .$if(from !== undefined, (q) => q.where('updated_at', '>=', from!))
        .limit(limit)
        .execute()
    ).map((r) => r.id);
    const ids = await withinBudget(this.db, candidates);
    if (ids.length === 0) return { removed: 0, more: false };
    const removed = await this.db.transaction().execute((trx) => removeContentOf(trx, ids, now));
    this.erased();
    return batchOf(removed, ids, candidates, limit);
  }

  /**
   * Removes the content of up to `limit` sealed messages that are final (out of the queue), whatever
   * their account keeps, fewer when it passes CONTENT_BYTES_PER_BATCH, and takes them off the list;
   * answers how many, and whether more wait.
   */
  async removeSealedContent(now: number, limit: number): Promise<RemovedBatch> {
    const candidates = (
      await this.db
        .selectFrom('sealed_messages as s')
        .innerJoin('messages as m', 'm.id', 's.message_id')
        .select('s.message_id')
        .where('m.next_attempt_at', 'is', null)
        // Not while a worker holds it: a bounce takes a message out of the queue under a worker's lease,
        // and the worker's record then keeps the bytes it sent (queue-record.ts).
        .where((eb) => eb.or([eb('m.lease_owner', 'is', null), eb('m.lease_expires_at', '<', now)]))
        .limit(limit)
        .execute()
    ).map((r) => r.message_id);
    const ids = await withinBudget(this.db, candidates);
    if (ids.length === 0) return { removed: 0, more: false };
    await this.db.transaction().execute(async (trx) => {
      await removeContentOf(trx, ids, now);
      await removeQuotedText(trx, ids);
      await trx.deleteFrom('sealed_messages').where('message_id', 'in', ids).execute();
    });
    this.erased();
    return batchOf(ids.length, ids, candidates, limit);
  }

  /** Deletes up to `limit` of the account's webhook attempts that started before `before`. */
  async deleteWebhookAttempts(accountId: string, before: number, limit: number): Promise<number> {
    const batch = this.db
      .selectFrom('webhook_attempts')
      .select('id')
      .where('account_id', '=', accountId)
      .where('started_at', '<', before)
      .limit(limit);
    const r = await this.db.deleteFrom('webhook_attempts').where('id', 'in', batch).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /**
   * Deletes up to `limit` of the account's events about the account itself (no message: they do not go
   * with a message's deletion) recorded before `before`, with their pushes (cascade).
   */
  async deleteAccountEvents(accountId: string, before: number, limit: number): Promise<number> {
    const batch = this.db
      .selectFrom('events')
      .select('id')
      .where('message_id', 'is', null)
      .where('account_id', '=', accountId)
      .where('created_at', '<', before)
      .limit(limit);
    const r = await this.db.deleteFrom('events').where('id', 'in', batch).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Deletes up to `limit` of the account's audit entries made before `before` (kept as long as logs). */
  async deleteAuditEntries(accountId: string, before: number, limit: number): Promise<number> {
    const batch = this.db
      .selectFrom('audit_log')
      .select('id')
      .where('account_id', '=', accountId)
      .where('created_at', '<', before)
      .limit(limit);
    const r = await this.db.deleteFrom('audit_log').where('id', 'in', batch).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Deletes up to `limit` sessions that expired at or before `now`. */
  async deleteExpiredSessions(now: number, limit: number): Promise<number> {
    const batch = this.db
      .selectFrom('sessions')
      .select('id_hash')
      .where('expires_at', '<=', now)
      .limit(limit);
    const r = await this.db.deleteFrom('sessions').where('id_hash', 'in', batch).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Deletes up to `limit` device cookies' records that expired at or before `now`. */
  async deleteExpiredLoginDevices(now: number, limit: number): Promise<number> {
    const batch = this.db
      .selectFrom('login_devices')
      .select('id_hash')
      .where('expires_at', '<=', now)
      .limit(limit);
    const r = await this.db
      .deleteFrom('login_devices')
      .where('id_hash', 'in', batch)
      // A log-in may have pushed the expiry forward since the batch was read.
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /**
   * Deletes up to `limit` one-time tokens that can no longer be used: used (or voided by a newer one)
   * or expired at or before `now`. Unknown, used and expired tokens get the same answer, so nothing
   * a holder sees changes.
   */
  async deleteSpentTokens(now: number, limit: number): Promise<number> {
    const batch = this.db
      .selectFrom('account_tokens')
      .select('token_hash')
      .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', now)]))
      .limit(limit);
    const r = await this.db.deleteFrom('account_tokens').where('token_hash', 'in', batch).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Deletes up to `limit` idempotency keys taken before `before` (they no longer replay anything). */
  async deleteExpiredIdempotencyKeys(before: number, limit: number): Promise<number> {
    const batch = this.db
      .selectFrom('idempotency_keys')
      .select(['account_id', 'key'])
      .where('created_at', '<', before)
      .limit(limit);
    const r = await this.db
      .deleteFrom('idempotency_keys')
      .where(({ eb, refTuple }) =>
        eb(refTuple('account_id', 'key'), 'in', batch.$asTuple('account_id', 'key')),
      )
      .where('created_at', '<', before)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Deletes up to `limit` attempt counts whose window ended at or before `now`. */
  async deleteExpiredAttemptCounts(now: number, limit: number): Promise<number> {
    const batch = this.db
      .selectFrom('attempt_counts')
      .select('key')
      .where('expires_at', '<=', now)
      .limit(limit);
    const r = await this.db
      .deleteFrom('attempt_counts')
      .where('key', 'in', batch)
      // An attempt may have started a new window since the batch was read.
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Deletes up to `limit` counters of test sends of days (YYYY-MM-DD) before `beforeDay`. */
  async deletePastTestUsage(beforeDay: string, limit: number): Promise<number> {
    const batch = this.db
      .selectFrom('test_usage')
      .select(['account_id', 'day'])
      .where('day', '<', beforeDay)
      .limit(limit);
    const r = await this.db
      .deleteFrom('test_usage')
      .where(({ eb, refTuple }) =>
        eb(refTuple('account_id', 'day'), 'in', batch.$asTuple('account_id', 'day')),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /**
   * Deletes up to `limit` reputation counts (reputation_counts) of days before `beforeDay`: past the
   * longest window and the longest activity chart, nothing reads them.
   */
  async deletePastReputationCounts(beforeDay: string, limit: number): Promise<number> {
    const batch = this.db
      .selectFrom('reputation_counts')
      .select(['account_id', 'day', 'domain'])
      .where('day', '<', beforeDay)
      .limit(limit);
    const r = await this.db
      .deleteFrom('reputation_counts')
      .where(({ eb, refTuple }) =>
        eb(refTuple('account_id', 'day', 'domain'), 'in', batch.$asTuple('account_id', 'day', 'domain')),
      )
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /**
   * Deletes up to `limit` accounts' sender blocks (sender_block_hits) last seen before `before`: older
   * than the longest window (TXMAIL_DESTINATION_BLOCKS window_minutes), no count reads them.
   */
  async deleteOldSenderBlockHits(before: number, limit: number): Promise<number> {
    const batch = this.db
      .selectFrom('sender_block_hits')
      .select(['destination', 'source_ip', 'account_id'])
      .where('hit_at', '<', before)
      .limit(limit);
    const r = await this.db
      .deleteFrom('sender_block_hits')
      .where(({ eb, refTuple }) =>
        eb(
          refTuple('destination', 'source_ip', 'account_id'),
          'in',
          batch.$asTuple('destination', 'source_ip', 'account_id'),
        ),
      )
      // Another block may have refreshed the row since the batch was read.
      .where('hit_at', '<', before)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Deletes up to `limit` destination pauses (destination_blocks) that ended before `before`. */
  async deleteEndedDestinationBlocks(before: number, limit: number): Promise<number> {
    const batch = this.db
      .selectFrom('destination_blocks')
      .select(['destination', 'source_ip'])
      .where('paused_until', '<', before)
      .limit(limit);
    const r = await this.db
      .deleteFrom('destination_blocks')
      .where(({ eb, refTuple }) =>
        eb(refTuple('destination', 'source_ip'), 'in', batch.$asTuple('destination', 'source_ip')),
      )
      // A new pause may have been set since the batch was read.
      .where('paused_until', '<', before)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Deletes up to `limit` MTA-STS policies (mta_sts_policies) that expired before `before`. */
  async deleteExpiredStsPolicies(before: number, limit: number): Promise<number> {
    const batch = this.db
      .selectFrom('mta_sts_policies')
      .select('domain')
      .where('expires_at', '<', before)
      .limit(limit);
    const r = await this.db
      .deleteFrom('mta_sts_policies')
      .where('domain', 'in', batch)
      // A fresh fetch may have replaced the policy since the batch was read.
      .where('expires_at', '<', before)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}

/** The first of `candidates` whose content fits CONTENT_BYTES_PER_BATCH (the first one at least). */
async function withinBudget(
  db: Kysely<Database> | Transaction<Database>,
  candidates: string[],
): Promise<string[]> {
  return prefixWithin(await withContentBytes(db, candidates), CONTENT_BYTES_PER_BATCH).map((r) => r.id);
}

/** A byte-bounded batch's answer: more wait when the budget cut it, or the candidates filled the limit. */
function batchOf(removed: number, taken: string[], candidates: string[], limit: number): RemovedBatch {
  return { removed, more: taken.length < candidates.length || candidates.length >= limit };
}

/**
 * `ids` in their order, each with the bytes of its message's content: the HTML, or its parts counted at
 * PART_BYTES each, and the raw message. The lengths come from the records' headers (octet_length), not
 * from reading the content.
 */
async function withContentBytes(
  db: Kysely<Database> | Transaction<Database>,
  ids: string[],
): Promise<{ id: string; bytes: number }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('messages as m')
    .leftJoin('message_bodies as b', 'b.message_id', 'm.id')
    .leftJoin('message_raw as r', 'r.message_id', 'm.id')
    .select([
      'm.id',
      sql<number>`coalesce(octet_length(b.html), 0) + coalesce(b.parts, 0) * ${PART_BYTES} + coalesce(octet_length(r.raw), 0)`.as(
        'bytes',
      ),
    ])
    .where('m.id', 'in', ids)
    .execute();
  const bytes = new Map(rows.map((r) => [r.id, Number(r.bytes)]));
  return ids.map((id) => ({ id, bytes: bytes.get(id) ?? 0 }));
}

/**
 * Removes the messages' content (the HTML and the kept bytes), marking each with when; answers how
 * many were marked (a message whose content went already is not counted again).
 */
/**
 * The text of the reports received about these messages (a bounce or an auto-reply may quote the
 * message, a sealed one's sign-in link with it), kept in their `email.report_received` events: taken out
 * of the events' data, the rest of the report kept. Few rows: a sealed message draws a report or two.
 */
async function removeQuotedText(trx: Transaction<Database>, ids: string[]): Promise<void> {
  const reports = await trx
    .selectFrom('events')
    .select(['id', 'data'])
    .where('message_id', 'in', ids)
    .where('type', '=', 'email.report_received')
    .execute();
  for (const report of reports) {
    let data: Record<string, unknown> | undefined;
    try {
      data = JSON.parse(report.data) as Record<string, unknown>;
    } catch {
      // Unreadable: nothing of it is kept.
    }
    if (data !== undefined && !('text' in data)) continue;
    if (data !== undefined) delete data.text;
    await trx
      .updateTable('events')
      .set({ data: JSON.stringify(data ?? {}) })
      .where('id', '=', report.id)
      .execute();
  }
}

async function removeContentOf(trx: Transaction<Database>, ids: string[], now: number): Promise<number> {
  const r = await trx
    .updateTable('messages')
    .set({ content_removed_at: now })
    .where('id', 'in', ids)
    .where('content_removed_at', 'is', null)
    .executeTakeFirst();
  await trx
    .updateTable('message_bodies')
    .set({ html: '', parts: 0 })
    .where('message_id', 'in', ids)
    .execute();
  await trx.deleteFrom('message_body_parts').where('message_id', 'in', ids).execute();
  await trx.deleteFrom('message_raw').where('message_id', 'in', ids).execute();
  return Number(r.numUpdatedRows);
}
