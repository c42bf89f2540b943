// The one place that asks which database a connection is: it picks that database's implementation of
// every seam (seams.ts), from db/sqlite/ or db/postgres/. Callers take what it gives and never branch
// on the database themselves.
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
