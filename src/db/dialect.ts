// Picks a connection's implementation of every seam (seams.ts), from db/sqlite/ or db/postgres/: what
// differs between the databases as a whole. Callers of a seam take what this gives. Smaller differences
// stay in the code that has them, which checks the database itself: PostgreSQL's row locks and a read's
// isolation level in a few repositories, the log's subject search (messages-repo.ts), the fair claim's
// statement (fair-claim.ts), the migrator's schema (database.ts); the accept writer is picked by
// accept/writer.ts, each queue store runs its own database's webhook enqueue, and large inbound raw
// texts are written in parts on SQLite (sqlite/parts-store.ts, given to the inbound repo by wiring/repos.ts).
import type { QuotaNoticeAt } from './accept-item.js';
import type { Db } from './database.js';
import { postgresAcceptTransaction } from './postgres/accept.js';
import { PostgresQueueSignal } from './postgres/queue-signal.js';
import { PostgresQueueStore } from './postgres/queue.js';
import { PostgresRateLimitStore } from './postgres/rate-limit-store.js';
import { postgresWebhookEnqueue } from './postgres/webhook-enqueue.js';
import type { AcceptTransaction, QueueSignal, QueueStore, RateLimitStore, WebhookEnqueue } from './seams.js';
import { sqliteAcceptTransaction } from './sqlite/accept.js';
import { sqliteQueueSignal } from './sqlite/queue-signal.js';
import { SqliteQueueStore } from './sqlite/queue.js';
import { MemoryRateLimitStore } from './sqlite/rate-limit-store.js';
import { sqliteWebhookEnqueue } from './sqlite/webhook-enqueue.js';

/** A database's seams. Each call makes a new one (a store holds its prepared statements, a signal its connection). */
export interface DialectSeams {
  /** The accept transaction on this connection; `noticeAt` makes the quota notices (accept-item.ts). */
  accept(noticeAt: QuotaNoticeAt): AcceptTransaction;
  queue(): QueueStore;
  webhookEnqueue: WebhookEnqueue;
  rateLimitStore(): RateLimitStore;
  /** `url`: the database's, for the signal's own listening connection. */
  queueSignal(url: string): QueueSignal;
}

export function dialectSeams(db: Db): DialectSeams {
  const { kysely, sqlite } = db;
  if (sqlite) {
    return {
      accept: (noticeAt) => sqliteAcceptTransaction(kysely, sqlite, noticeAt),
      queue: () => new SqliteQueueStore(kysely, sqlite),
      webhookEnqueue: sqliteWebhookEnqueue,
      rateLimitStore: () => new MemoryRateLimitStore(),
      queueSignal: () => sqliteQueueSignal,
    };
  }
  return {
    accept: (noticeAt) => postgresAcceptTransaction(kysely, noticeAt),
    queue: () => new PostgresQueueStore(kysely),
    webhookEnqueue: postgresWebhookEnqueue,
    rateLimitStore: () => new PostgresRateLimitStore(kysely),
    queueSignal: (url) => new PostgresQueueSignal(kysely, url),
  };
}
