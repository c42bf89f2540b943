// Reading the delivery log: messages of an account and each message's events. Always scoped by account.
import type { Kysely } from 'kysely';
import type { Dialect } from './database.js';
import {
  MESSAGE_COLUMNS,
  type Database,
  type DeliveryAttemptRow,
  type WebhookAttemptRow,
  type EventRow,
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
}

/** A message row without its body, as the log lists it. */
export type MessageSummary = Omit<MessageRow, 'html'>;

const SUMMARY_COLUMNS = MESSAGE_COLUMNS.filter(
  (c): c is Exclude<(typeof MESSAGE_COLUMNS)[number], 'html'> => c !== 'html',
);

export interface MessageDetail {
  message: MessageRow;
  events: EventRow[];
  attempts: DeliveryAttemptRow[];
  webhookAttempts: (WebhookAttemptRow & { url: string })[];
}

export class MessagesRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** Newest first, at most `limit`. */
  async list(accountId: string, filter: MessageFilter, limit: number): Promise<MessageSummary[]> {
    let q = this.db.selectFrom('messages').select(SUMMARY_COLUMNS).where('account_id', '=', accountId);
    if (filter.status) q = q.where('status', '=', filter.status);
    if (filter.category) q = q.where('category', '=', filter.category);
    if (filter.toEmail) q = q.where('to_email', '=', filter.toEmail);
    if (filter.fromEmail) q = q.where('from_email', '=', filter.fromEmail);
    if (filter.since !== undefined) q = q.where('created_at', '>=', filter.since);
    if (filter.until !== undefined) q = q.where('created_at', '<', filter.until);
    if (filter.beforeId) q = q.where('id', '<', filter.beforeId);
    return q.orderBy('id', 'desc').limit(limit).execute();
  }

  /**
   * The message with its events, attempts and webhook pushes, read from one snapshot: a reader never
   * sees a new event beside the message's old status. (On PostgreSQL a plain transaction gives each
   * statement its own snapshot, hence REPEATABLE READ; a SQLite transaction reads one snapshot.)
   */
  async detail(accountId: string, id: string): Promise<MessageDetail | undefined> {
    let tx = this.db.transaction();
    if (this.dialect === 'postgres') tx = tx.setIsolationLevel('repeatable read');
    return tx.execute(async (trx) => {
      const reader = new MessagesRepo(trx, this.dialect);
      const message = await reader.get(accountId, id);
      if (!message) return undefined;
      // One after another: a transaction is one connection, which runs one statement at a time.
      const events = await reader.events(accountId, id);
      const attempts = await reader.attempts(accountId, id);
      const webhookAttempts = await reader.webhookAttempts(accountId, id);
      return { message, events, attempts, webhookAttempts };
    });
  }

  async get(accountId: string, id: string): Promise<MessageRow | undefined> {
    return this.db
      .selectFrom('messages')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The message's history, newest first. */
  async events(accountId: string, messageId: string): Promise<EventRow[]> {
    return this.db
      .selectFrom('events')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('message_id', '=', messageId)
      .orderBy('id', 'desc')
      .execute();
  }

  /** Every delivery attempt of the message, newest first. */
  async attempts(accountId: string, messageId: string): Promise<DeliveryAttemptRow[]> {
    return this.db
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
    return this.db
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
