// The delivery queue on SQLite: the same operations as QueueRepo, as cached prepared statements run
// synchronously under Kysely's connection lock (Kysely's SQLite driver prepares every statement anew,
// which cost more than the writes themselves).
//
// Claims commit without an fsync (synchronous=NORMAL for that one statement): a lease is only a
// reservation, and the next durable commit (every attempt's record is one) flushes it with everything
// before it in the WAL. A claim lost to a power cut puts the message back in the queue, where it
// belongs anyway. Records stay fully durable: a lost "delivered" would mean delivering twice.
import { Signal } from '../wake-signals.js';
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { AttemptRecord, RecordOutcome } from './queue-repo.js';
import { eventCategory } from './event-category.js';
import { claimFairSqlite } from './fair-claim.js';
import { appliedDeltas, DELIVERY_CAPS, DELIVERY_QUEUE, inDeliveryTurn, QueueRepo } from './queue-repo.js';
import { prepareReputationCounts } from './reputation-repo.js';
import { QUEUED_MESSAGE_STATUSES, type Database, type MessageRow } from './schema.js';
import { prepareWebhookEnqueue } from './webhook-enqueue.js';

const ATTEMPT_COLUMNS = [
  'id',
  'message_id',
  'account_id',
  'started_at',
  'duration_ms',
  'outcome',
  'remote_host',
  'remote_ip',
  'tls',
  'smtp_code',
  'enhanced_code',
  'reply',
  'source_ip',
  'tls_version',
  'tls_cipher',
  'tls_certificate',
  'tls_certificate_error',
  'tls_policy',
  'tls_fallback',
] as const;

export class SqliteQueueRepo extends QueueRepo {
  private readonly claim: (owner: string, now: number, leaseUntil: number, limit: number) => MessageRow[];
  /** Applies the records; also says how many webhook pushes they queued. */
  private readonly record: (records: AttemptRecord[]) => { outcomes: RecordOutcome[]; pushes: number };
  private readonly next: SQLite.Statement<[], { next: number | null }>;

  constructor(
    private readonly kysely: Kysely<Database>,
    private readonly sqlite: SQLite.Database,
    webhookPushesQueued?: Signal,
  ) {
    super(kysely, 'sqlite', webhookPushesQueued);
    // The fair claim (fair-claim.ts): its text is the same for every claim, only the parameters change,
    // so it is prepared once.
    let claim: { text: string; statement: SQLite.Statement<unknown[], MessageRow> } | undefined;
    this.claim = (owner, now, leaseUntil, limit) => {
      if (limit <= 0) return [];
      const compiled = claimFairSqlite<MessageRow>(
        DELIVERY_QUEUE,
        owner,
        now,
        leaseUntil,
        limit,
        DELIVERY_CAPS,
      ).compile(kysely);
      if (claim?.text !== compiled.sql)
        claim = { text: compiled.sql, statement: sqlite.prepare<unknown[], MessageRow>(compiled.sql) };
      sqlite.pragma('synchronous = NORMAL');
      try {
        return inDeliveryTurn(claim.statement.all(...compiled.parameters));
      } finally {
        sqlite.pragma('synchronous = FULL');
      }
    };

    // As QueueRepo.recordOne: the status moves only out of a queued one; else, while the lease is
    // ours, the message keeps its status and leaves the queue.
    const queued = QUEUED_MESSAGE_STATUSES.map((s) => `'${s}'`).join(', ');
    const update = sqlite.prepare<[string, number | null, number, number, string | null, string, string]>(
      `update messages set status = ?, next_attempt_at = ?, updated_at = ?, attempts = attempts + ?,
         category = coalesce(?, category), lease_owner = null, lease_expires_at = null
       where id = ? and lease_owner = ? and status in (${queued})`,
    );
    const release = sqlite.prepare<[number, number, string, string]>(
      `update messages set next_attempt_at = null, updated_at = ?, attempts = attempts + ?,
         lease_owner = null, lease_expires_at = null
       where id = ? and lease_owner = ?`,
    );
    const insertAttempt = sqlite.prepare(
      `insert into delivery_attempts (${ATTEMPT_COLUMNS.join(', ')})
       values (${ATTEMPT_COLUMNS.map((c) => '@' + c).join(', ')})`,
    );
    const insertEvent = sqlite.prepare<[string, string, string, string, number, string]>(
      `insert into events (id, message_id, account_id, type, created_at, data) values (?, ?, ?, ?, ?, ?)`,
    );
    const insertSuppression = sqlite.prepare<
      [string, string, string, string, string, string | null, string, number]
    >(
      `insert into suppressions (id, account_id, address, origin, reason, enhanced_code, source_message_id, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?) on conflict (account_id, address) do nothing`,
    );
    const enqueueWebhooks = prepareWebhookEnqueue(sqlite);
    const addCounts = prepareReputationCounts(sqlite);
    this.record = sqlite.transaction((records: AttemptRecord[]) => {
      let pushes = 0;
      const outcomes = records.map((r): RecordOutcome => {
        const counted = r.counted ? 1 : 0;
        let outcome: RecordOutcome = 'applied';
        const category = eventCategory(r.events);
        if (
          update.run(r.status, r.nextAttemptAt, r.now, counted, category, r.messageId, r.owner).changes === 0
        ) {
          if (release.run(r.now, counted, r.messageId, r.owner).changes === 0) return 'lease_lost';
          outcome = 'superseded';
        }
        if (r.attempt) insertAttempt.run(r.attempt);
        if (outcome === 'applied') {
          for (const e of r.events) {
            insertEvent.run(e.id, r.messageId, r.accountId, e.type, r.now, JSON.stringify(e.data));
          }
        }
        const s = r.suppression;
        if (s) {
          insertSuppression.run(
            s.id,
            r.accountId,
            s.address,
            s.origin,
            s.reason,
            s.enhanced_code,
            r.messageId,
            r.now,
          );
        }
        if (outcome === 'applied' && r.events.length > 0) {
          pushes += enqueueWebhooks(
            r.events.map((e) => ({ id: e.id, account_id: r.accountId, type: e.type, created_at: r.now })),
          );
        }
        return outcome;
      });
      // The batch's reputation counts: one upsert per account, day and domain (reputation-repo.ts).
      addCounts(appliedDeltas(records, outcomes));
      return { outcomes, pushes };
    });
    this.next = sqlite.prepare(
      'select min(next_attempt_at) as next from messages where next_attempt_at is not null',
    );
  }

  override claimDue(owner: string, now: number, leaseUntil: number, limit: number): Promise<MessageRow[]> {
    return this.locked(() => this.claim(owner, now, leaseUntil, limit));
  }

  override async recordMany(records: AttemptRecord[]): Promise<RecordOutcome[]> {
    const { outcomes, pushes } = await this.locked(() => this.record(records));
    if (pushes > 0) this.webhookPushesQueued.emit();
    return outcomes;
  }

  override nextDue(): Promise<number | undefined> {
    return this.locked(() => this.next.get()?.next ?? undefined);
  }

  /** Runs `fn` while no Kysely query holds the connection (no transaction of theirs is open). */
  private locked<T>(fn: () => T): Promise<T> {
    return this.kysely.connection().execute(async () => fn());
  }
}
