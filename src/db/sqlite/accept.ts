// The accept seam on SQLite: the same steps as db/postgres/accept.ts, as cached prepared statements
// in one synchronous transaction. Preparing statements per query (as Kysely's SQLite driver does) cost
// more than the writes themselves on the send path; see bench/accept. It runs on the event loop's
// connection (sqliteAcceptTransaction) or, for a database file, on a thread of its own with its own
// connection (prepareSqliteAccept, from accept/sqlite-thread-entry.ts).
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { AcceptItem, AcceptOutcome, QuotaNoticeAt } from '../accept-item.js';
import { MESSAGE_COLUMNS, type AccountNoticeRow, type Database } from '../schema.js';
import type { AcceptTransaction } from '../seams.js';
import type { SuppressionFacts } from '../suppressions-repo.js';

/**
 * The accept transaction on the connection Kysely serves (`kysely` over `sqlite`), under Kysely's lock
 * on it, so it never runs inside a transaction Kysely has open.
 */
export function sqliteAcceptTransaction(
  kysely: Kysely<Database>,
  sqlite: SQLite.Database,
  noticeAt: QuotaNoticeAt,
): AcceptTransaction {
  const run = prepareSqliteAccept(sqlite, noticeAt);
  return (items) => kysely.connection().execute(async () => run(items));
}

const EVENT_COLUMNS = ['id', 'message_id', 'account_id', 'type', 'created_at', 'data'] as const;

const insertSql = (table: string, columns: readonly string[]) =>
  `insert into ${table} (${columns.join(', ')}) values (${columns.map((c) => '@' + c).join(', ')})`;

/** Prepares the accept statements on this connection; the returned function writes one batch. */
export function prepareSqliteAccept(
  sqlite: SQLite.Database,
  noticeAt: QuotaNoticeAt,
): (items: AcceptItem[]) => AcceptOutcome[] {
  const findSuppression = sqlite.prepare<[string, string], SuppressionFacts>(
    'select reason, created_at from suppressions where account_id = ? and address = ?',
  );
  const takeKey = sqlite.prepare<[string, string, string, string, number, number], { key: string }>(
    `insert into idempotency_keys (account_id, key, request_hash, response, created_at) values (?, ?, ?, ?, ?)
     on conflict (account_id, key) do update set request_hash = excluded.request_hash,
       response = excluded.response, created_at = excluded.created_at
     where idempotency_keys.created_at < ? returning key`,
  );
  const dropKey = sqlite.prepare<[string, string]>(
    'delete from idempotency_keys where account_id = ? and key = ?',
  );
  // The month's count is read once per account and batch, counted on in memory, and written once at the
  // end of the transaction (countMonth). One upsert per send cost about a sixth of the transaction's
  // CPU (bench/accept-transaction); the transaction holds SQLite's only write lock (IMMEDIATE), so no
  // other writer can count in between.
  const readMonth = sqlite.prepare<[string, string], { sent: number }>(
    'select sent from usage where account_id = ? and month = ?',
  );
  const writeMonth = sqlite.prepare<[string, string, number]>(
    `insert into usage (account_id, month, sent) values (?, ?, ?)
     on conflict (account_id, month) do update set sent = excluded.sent`,
  );
  const countTest = sqlite.prepare<[string, string, number], { sent: number }>(
    `insert into test_usage (account_id, day, sent) values (?, ?, 1)
     on conflict (account_id, day) do update set sent = test_usage.sent + 1 where test_usage.sent < ?
     returning sent`,
  );
  const insertNotice = sqlite.prepare(
    `${insertSql('account_notices', ['id', 'account_id', 'kind', 'message', 'data', 'created_at'])}
     on conflict (id) do nothing`,
  );
  const insertMessage = sqlite.prepare(insertSql('messages', MESSAGE_COLUMNS));
  const insertBody = sqlite.prepare<[string, string, number, number]>(
    'insert into message_bodies (message_id, html, parts, sealed) values (?, ?, ?, ?)',
  );
  const insertEvent = sqlite.prepare(insertSql('events', EVENT_COLUMNS));
  const insertSealed = sqlite.prepare<[string]>('insert into sealed_messages (message_id) values (?)');
  const adoptParts = sqlite.prepare<[string]>('delete from message_body_parts_pending where message_id = ?');

  /** The batch's months, by account: the count so far, and whether this batch has counted on it. */
  let months = new Map<string, { accountId: string; month: string; sent: number; counted: boolean }>();
  /**
   * The month's count with this send, or undefined when the cap refuses it: the same answers, send by
   * send, as a conditional upsert each (`sent + 1`, only while sent < cap) for any cap a plan has.
   */
  const countMonth = (accountId: string, month: string, cap: number): number | undefined => {
    const k = `${accountId}\n${month}`;
    let m = months.get(k);
    if (!m) {
      m = { accountId, month, sent: readMonth.get(accountId, month)?.sent ?? 0, counted: false };
      months.set(k, m);
    }
    if (m.sent >= cap) return undefined;
    m.counted = true;
    return ++m.sent;
  };

  const acceptOne = (item: AcceptItem): AcceptOutcome => {
    const m = item.message;
    const idem = item.idempotency;
    let warned: AccountNoticeRow | undefined;
    if (item.refuseSuppressed !== undefined) {
      const suppression = findSuppression.get(m.account_id, item.refuseSuppressed);
      if (suppression) return { kind: 'suppressed', suppression };
    }
    if (
      idem &&
      !takeKey.get(m.account_id, idem.key, idem.requestHash, idem.response, m.created_at, idem.expiredBefore)
    ) {
      return { kind: 'idempotency_conflict' };
    }
    if (item.quota) {
      const sent = countMonth(m.account_id, item.quota.month, item.quota.cap);
      if (sent === undefined) {
        if (idem) dropKey.run(m.account_id, idem.key);
        return { kind: 'quota_exceeded' };
      }
      const notice = noticeAt(m.account_id, item.quota.month, sent, item.quota.cap, m.created_at);
      if (notice && insertNotice.run(notice).changes > 0) warned = notice;
    }
    if (item.testQuota) {
      const counted = countTest.get(m.account_id, item.testQuota.day, item.testQuota.cap);
      if (!counted || counted.sent > item.testQuota.cap) {
        if (idem) dropKey.run(m.account_id, idem.key);
        return { kind: 'test_quota_exceeded' };
      }
    }
    // Every named column must be bound: a message without a deadline (optional in NewMessage) has none.
    insertMessage.run(m.deadline_at === undefined ? { ...m, deadline_at: null } : m);
    insertBody.run(m.id, item.html, item.bodyParts ?? 0, item.sealed ? 1 : 0);
    if (item.bodyParts) adoptParts.run(m.id);
    insertEvent.run(item.event);
    if (item.sealed) insertSealed.run(m.id);
    return warned ? { kind: 'accepted', warned } : { kind: 'accepted' };
  };
  const transaction = sqlite.transaction((items: AcceptItem[]) => {
    months = new Map();
    const outcomes = items.map(acceptOne);
    for (const m of months.values()) if (m.counted) writeMonth.run(m.accountId, m.month, m.sent);
    return outcomes;
  });
  // IMMEDIATE: the write lock is taken (waiting out another process's writer) before the first read.
  // A deferred transaction that reads, then writes after another connection committed, fails at once
  // with SQLITE_BUSY_SNAPSHOT instead of waiting.
  return (items) => transaction.immediate(items);
}
