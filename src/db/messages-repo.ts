// Reading the delivery log: messages of an account and each message's events. Always scoped by account.
import { promisify } from 'node:util';
import { createGunzip, gunzip, gzip } from 'node:zlib';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.js';
import type { KeptRaw } from './queue-record.js';
import {
  MESSAGE_COLUMNS,
  type Database,
  type DeliveryAttemptRow,
  type WebhookAttemptRow,
  type EventRow,
  type LoggedMessageRow,
  type MessageRow,
  type MessageStatus,
} from './schema.js';

export interface MessageFilter {
  status?: MessageStatus;
  /** The category of the message's latest failure, delay or complaint (messages.category). */
  category?: string;
  toEmail?: string;
  fromEmail?: string;
  since?: number;
  until?: number;
  /** Only messages older than this id (the cursor: ids are time-ordered). */
  beforeId?: string;
  /** Exactly this message (a search by its Message-ID). */
  id?: string;
  /** The recipient's domain (ASCII, lower case). */
  toDomain?: string;
  /** Every word in the subject, case-insensitively (ASCII), as a substring. */
  subjectWords?: string[];
}

/**
 * A word of a search as a LIKE pattern: its own %, _ and \ match themselves (ESCAPE '\'); only A–Z
 * lower-cased, as the subject is on both databases (asciiLower), so both find the same messages.
 */
function likeContains(word: string): string {
  return `%${asciiLower(word).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** A–Z to a–z and nothing else: what SQLite's lower() does, and translate(…, UPPER, lower) on PostgreSQL. */
const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

const gzippedAsync = promisify(gzip);
const gunzipped = promisify(gunzip);

/**
 * The largest message whose bytes are kept (as sent, before compression): the request's 10 MiB of
 * HTML with its text alternative and encoding is larger, and such a message's raw view is not worth
 * the storage; its log says the bytes were not kept.
 */
export const MAX_RAW_KEPT_BYTES = 16 * 1024 * 1024;

/**
 * What keeps `signed`, or undefined when it is too large: `gzipped` is its compressed copy when the
 * build thread made one (message-builder.ts buildKept), else it is compressed here, off the event loop.
 */
export async function compressRaw(
  signed: Buffer,
  now: number,
  gzipped?: Buffer,
): Promise<KeptRaw | undefined> {
  if (signed.length > MAX_RAW_KEPT_BYTES) return undefined;
  const raw = (gzipped ?? (await gzippedAsync(signed, { level: 1 }))).toString('base64');
  return { raw, size: signed.length, signed_at: now };
}

/** The bytes a message was last sent as, or why there are none. */
export type RawMessage =
  | { kind: 'kept'; raw: Buffer; signedAt: number }
  | { kind: 'removed'; removedAt: number }
  /** attempted: the message was sent, but its bytes were not kept (too large, or not compressed). */
  | { kind: 'none'; attempted: boolean };

/** Parts of a large HTML read in one statement: 128 Ki UTF-16 units each (db/sqlite/body-parts.ts). */
const PARTS_PER_READ = 8;
/** Characters of an HTML stored whole read in one statement. */
const HTML_READ_CHARS = 1024 * 1024;

export interface MessageDetail {
  /** The message with its HTML in pieces (MessagesRepo.getInPieces). */
  message: LoggedMessageRow & { htmlPieces: string[] };
  /** The raw bytes kept: their size as sent; undefined when none are. */
  rawSize: number | undefined;
  /** The account's content_retention_days as it is now (the authenticated account may be cached). */
  contentRetentionDays: number | null;
  /** When content retention began on this database (migration 032); undefined: with the database. */
  contentRetentionSince: number | undefined;
  /** Re-sent copies of this message (POST /api/emails/:id/resend), oldest first. */
  resends: string[];
  events: EventRow[];
  attempts: DeliveryAttemptRow[];
  webhookAttempts: (WebhookAttemptRow & { url: string })[];
}

export class MessagesRepo {
  /**
   * `reads`: where the log's reads run, whose cost grows with the account's log (Db.reads: on SQLite,
   * reader threads, off the event loop); writes and the small look-ups use `db`.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly reads: Kysely<Database> = db,
  ) {}

  /** Newest first, at most `limit`. */
  async list(accountId: string, filter: MessageFilter, limit: number): Promise<MessageRow[]> {
    return this.matching(accountId, filter)
      .select(MESSAGE_COLUMNS)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** The ids of what `list` would answer, newest first, at most `limit`: 36 bytes a message. */
  async listIds(accountId: string, filter: MessageFilter, limit: number): Promise<string[]> {
    const rows = await this.matching(accountId, filter)
      .select('id')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** The account's messages that pass `filter`, on the reads' connection. */
  private matching(accountId: string, filter: MessageFilter) {
    let q = this.reads.selectFrom('messages').where('account_id', '=', accountId);
    if (filter.status) q = q.where('status', '=', filter.status);
    if (filter.category) q = q.where('category', '=', filter.category);
    // Only A–Z lower-cased, on both sides and both databases: SQLite's lower() leaves other letters as
    // they are, PostgreSQL's would not (translate() does as SQLite does).
    const folded = (column: 'to_email' | 'from_email' | 'subject') =>
      this.dialect === 'postgres'
        ? sql<string>`translate(${sql.ref(column)}, ${UPPER}, ${UPPER.toLowerCase()})`
        : sql<string>`lower(${sql.ref(column)})`;
    // Addresses in any case of A–Z, as people type them (STRANGER@… finds stranger@…).
    if (filter.toEmail) q = q.where(folded('to_email'), '=', asciiLower(filter.toEmail));
    if (filter.fromEmail) q = q.where(folded('from_email'), '=', asciiLower(filter.fromEmail));
    if (filter.since !== undefined) q = q.where('created_at', '>=', filter.since);
    if (filter.until !== undefined) q = q.where('created_at', '<', filter.until);
    if (filter.beforeId) q = q.where('id', '<', filter.beforeId);
    if (filter.id) q = q.where('id', '=', filter.id);
    if (filter.toDomain) q = q.where('to_domain', '=', filter.toDomain);
    // Parameters, never text in the statement; the subject folded on both sides, as PostgreSQL's LIKE
    // is case-sensitive and SQLite's is not. The account's own messages are scanned newest first and
    // the scan stops at the page's end.
    const subject = folded('subject');
    for (const word of filter.subjectWords ?? [])
      q = q.where(sql<boolean>`${subject} like ${likeContains(word)} escape '\\'`);
    return q;
  }

  /**
   * The message with its events, attempts and webhook pushes, read from one snapshot: a reader never
   * sees a new event beside the message's old status. (On PostgreSQL a plain transaction gives each
   * statement its own snapshot, hence REPEATABLE READ; SQLite reads one snapshot in any transaction, and
   * begins this one deferred: database.ts.)
   */
  async detail(accountId: string, id: string): Promise<MessageDetail | undefined> {
    return this.reads
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const reader = new MessagesRepo(trx, this.dialect);
        const message = await reader.getInPieces(accountId, id);
        if (!message) return undefined;
        // One after another: a transaction is one connection, which runs one statement at a time.
        const events = await reader.events(accountId, id);
        const attempts = await reader.attempts(accountId, id);
        const webhookAttempts = await reader.webhookAttempts(accountId, id);
        const raw = await trx
          .selectFrom('message_raw')
          .select('size')
          .where('message_id', '=', id)
          .where('account_id', '=', accountId)
          .executeTakeFirst();
        const resends = await trx
          .selectFrom('messages')
          .select('id')
          .where('resent_from', '=', id)
          .where('account_id', '=', accountId)
          .orderBy('id')
          .execute();
        const account = await trx
          .selectFrom('accounts')
          .select('content_retention_days')
          .where('id', '=', accountId)
          .executeTakeFirst();
        const since = await trx
          .selectFrom('upgrade_marks')
          .select('at')
          .where('name', '=', 'content_retention')
          .executeTakeFirst();
        return {
          message,
          contentRetentionDays: account?.content_retention_days ?? null,
          contentRetentionSince: since?.at,
          events,
          attempts,
          webhookAttempts,
          rawSize: raw?.size,
          resends: resends.map((r) => r.id),
        };
      });
  }

  /** The message with its HTML ('' once the content retention removed it). */
  async get(accountId: string, id: string): Promise<(LoggedMessageRow & { html: string }) | undefined> {
    const found = await this.getInPieces(accountId, id);
    if (!found) return undefined;
    const { htmlPieces, ...message } = found;
    return { ...message, html: htmlPieces.join('') };
  }

  /**
   * The message with its HTML in the pieces it is stored in: one for an HTML stored whole ('' once the
   * content retention removed it), its parts for one stored in parts (db/sqlite/body-parts.ts), not
   * put together: the log's detail writes them a piece at a time, and joining 10 MiB of them held the
   * event loop 30–50 ms.
   */
  async getInPieces(
    accountId: string,
    id: string,
  ): Promise<(LoggedMessageRow & { htmlPieces: string[] }) | undefined> {
    // The row and its parts from one snapshot (as detail() reads them): read apart, a content removal
    // in between gave the HTML '' beside content_removed_at null, and a re-send of nothing.
    if (!this.reads.isTransaction) {
      return this.reads
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute((trx) => new MessagesRepo(trx, this.dialect).getInPieces(accountId, id));
    }
    const row = await this.reads
      .selectFrom('messages as m')
      .leftJoin('message_bodies as b', 'b.message_id', 'm.id')
      .selectAll('m')
      .select((eb) => [
        // An HTML stored whole and long (PostgreSQL stores every HTML whole) is read in pieces below.
        sql<string>`case when length(b.html) <= ${HTML_READ_CHARS} then b.html else '' end`.as('html'),
        eb.fn.coalesce(sql<number>`length(b.html)`, sql<number>`0`).as('html_length'),
        eb.fn.coalesce('b.parts', sql<number>`0`).as('parts'),
      ])
      .where('m.account_id', '=', accountId)
      .where('m.id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const { parts, html, html_length, ...message } = row;
    const count = Number(parts);
    const length = Number(html_length);
    if (count === 0 && length <= HTML_READ_CHARS) return { ...message, htmlPieces: [html ?? ''] };
    if (count === 0) {
      // A MiB of characters a statement (characters, not UTF-16 units: no piece splits a pair), for
      // the same reason as the parts below: pg parses a row whole in one turn of the loop, and a 10 MiB
      // one held it 150–200 ms.
      const htmlPieces: string[] = [];
      for (let from = 1; from <= length; from += HTML_READ_CHARS) {
        const piece = await this.reads
          .selectFrom('message_bodies')
          .select(sql<string>`substr(html, ${from}, ${HTML_READ_CHARS})`.as('piece'))
          .where('message_id', '=', id)
          .executeTakeFirst();
        htmlPieces.push(piece?.piece ?? '');
      }
      return { ...message, htmlPieces };
    }
    // A few parts a statement: a reader thread's answer is taken whole in one turn of the loop, and ten
    // details of 10 MiB read in one statement each held it for over 100 ms as their answers arrived.
    const htmlPieces: string[] = [];
    for (let from = 0; from < count; from += PARTS_PER_READ) {
      const rows = await this.reads
        .selectFrom('message_body_parts')
        .select('part')
        .where('message_id', '=', id)
        .where('seq', '>=', from)
        .where('seq', '<', from + PARTS_PER_READ)
        .orderBy('seq')
        .execute();
      htmlPieces.push(...rows.map((p) => p.part));
    }
    return { ...message, htmlPieces };
  }

  /** The bytes the message was last sent as (decompressed), or why there are none. */
  async raw(accountId: string, messageId: string): Promise<RawMessage | undefined> {
    const row = await this.reads
      .selectFrom('messages as m')
      .leftJoin('message_raw as r', 'r.message_id', 'm.id')
      .select(['m.content_removed_at', 'm.attempts', 'r.raw', 'r.signed_at'])
      .where('m.account_id', '=', accountId)
      .where('m.id', '=', messageId)
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.content_removed_at !== null) return { kind: 'removed', removedAt: row.content_removed_at };
    if (row.raw === null || row.signed_at === null)
      return { kind: 'none', attempted: Number(row.attempts) > 0 };
    return { kind: 'kept', raw: await gunzipped(Buffer.from(row.raw, 'base64')), signedAt: row.signed_at };
  }

  /**
   * The header block the message was last sent with (up to its blank line), inflated no further than
   * `maxBytes`: undefined when no copy is kept, or its headers run past that. For matching a report
   * (inbound-processor.ts quotingTarget), which anyone may send: a kept copy may be 16 MiB, its head
   * a few KiB.
   */
  async sentHead(accountId: string, messageId: string, maxBytes: number): Promise<string | undefined> {
    const row = await this.reads
      .selectFrom('message_raw')
      .select('raw')
      .where('account_id', '=', accountId)
      .where('message_id', '=', messageId)
      .executeTakeFirst();
    return row ? headOfGzip(Buffer.from(row.raw, 'base64'), maxBytes) : undefined;
  }

  /** Links a re-sent copy to its original (the original lists its copies by this column). */
  async markResent(accountId: string, copyId: string, originalId: string): Promise<void> {
    await this.db
      .updateTable('messages')
      .set({ resent_from: originalId })
      .where('id', '=', copyId)
      .where('account_id', '=', accountId)
      .execute();
  }

  /** The message's history, newest first. */
  async events(accountId: string, messageId: string): Promise<EventRow[]> {
    return this.reads
      .selectFrom('events')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('message_id', '=', messageId)
      .orderBy('id', 'desc')
      .execute();
  }

  /** The data of the message's `email.queued` event (what it was queued as); undefined when none. */
  async queuedEventData(accountId: string, messageId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('events')
      .select('data')
      .where('account_id', '=', accountId)
      .where('message_id', '=', messageId)
      .where('type', '=', 'email.queued')
      .executeTakeFirst();
    return row?.data;
  }

  /** Every delivery attempt of the message, newest first. */
  async attempts(accountId: string, messageId: string): Promise<DeliveryAttemptRow[]> {
    return this.reads
      .selectFrom('delivery_attempts')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('message_id', '=', messageId)
      .orderBy('id', 'desc')
      .execute();
  }

  /** Messages from `fromEmail` in the account's log since `since` (the guided test's throttle). */
  async countFrom(accountId: string, fromEmail: string, since: number): Promise<number> {
    const row = await this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('account_id', '=', accountId)
      .where('from_email', '=', fromEmail)
      .where('created_at', '>=', since)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Every webhook push of the message's events, oldest first, with the endpoint's URL. */
  async webhookAttempts(
    accountId: string,
    messageId: string,
  ): Promise<(WebhookAttemptRow & { url: string })[]> {
    return this.reads
      .selectFrom('webhook_attempts as a')
      .innerJoin('webhooks as w', 'w.id', 'a.webhook_id')
      .selectAll('a')
      .select('w.url')
      .where('a.account_id', '=', accountId)
      .where('a.event_id', 'in', (eb) =>
        eb
          .selectFrom('events')
          .select('id')
          .where('message_id', '=', messageId)
          .where('account_id', '=', accountId),
      )
      .orderBy('a.id')
      .execute();
  }
}

/**
 * The bytes of a gzipped message before its first blank line, inflating no more than `maxBytes` of it
 * (the inflater stops there); undefined when the blank line is not within them, or the data is not gzip.
 */
export function headOfGzip(gz: Buffer, maxBytes: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const inflater = createGunzip();
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const finish = (head: string | undefined) => {
      if (settled) return;
      settled = true;
      inflater.destroy();
      resolve(head);
    };
    inflater.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      const text = Buffer.concat(chunks).subarray(0, maxBytes).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end >= 0) return finish(text.slice(0, end));
      if (length >= maxBytes) finish(undefined);
    });
    inflater.on('end', () => finish(undefined));
    inflater.on('error', () => finish(undefined));
    inflater.end(gz);
  });
}
