// The webhook outbox: claiming due pushes under a lease, fairly (fair-claim.ts: the account with the
// fewest pushes in flight first, caps on the leases of an endpoint and of an account), reading what a
// push needs, recording each attempt with its consequences in one transaction, and queuing replays
// within the endpoint's cap of pending ones. The caps are the caller's (webhooks/dispatch-limits.ts).
// The rows themselves are written by webhook-enqueue.ts, inside the transaction that records events.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Dialect } from './database.js';
import type {
  AccountNoticeRow,
  Database,
  EventType,
  WebhookAttemptRow,
  WebhookOutboxRow,
  WebhookOutboxStatus,
  WebhookRow,
} from './schema.js';
import { claimFair, type FairQueue } from './fair-claim.js';
import { unsyncedCommits } from './unsynced-commits.js';

/** The outbox as a fair queue: accounts in turn, a few pushes in flight per endpoint and per account. */
const OUTBOX_QUEUE: FairQueue = {
  table: 'webhook_outbox',
  due: 'next_attempt_at',
  owner: 'lease_owner',
  until: 'lease_expires_at',
  tenant: { column: 'account_id', table: 'accounts' },
  group: { column: 'webhook_id', table: 'webhooks' },
};

/** Pushes in flight at once, across every dispatcher: the claim never leases past them. */
export interface PushCaps {
  perEndpoint: number;
  perAccount: number;
}

/** A replay to queue: the event again for one endpoint, as a push of its own. */
export interface ReplayPush {
  webhookId: string;
  accountId: string;
  eventId: string;
  replayId: string;
}

/**
 * Everything one push needs: the outbox row, its endpoint, the event and the message it is about (null
 * for an event about the account itself, `account.warning` / `account.paused`).
 */
export interface WebhookJob {
  outbox: WebhookOutboxRow;
  webhook: WebhookRow;
  event: { id: string; type: EventType; created_at: number; data: string };
  message: WebhookJobMessage | null;
}

export interface WebhookJobMessage {
  id: string;
  from_name: string;
  from_email: string;
  to_name: string;
  to_email: string;
  subject: string;
  created_at: number;
}

export interface WebhookAttemptRecord {
  outboxId: string;
  owner: string;
  /** The row's new state: `pending` with the next time, or final. */
  status: WebhookOutboxStatus;
  nextAttemptAt: number | null;
  /** Counted attempts so far, this one included. */
  attempts: number;
  attempt: WebhookAttemptRow | undefined;
  /** Set when this attempt disables the endpoint (410 Gone, or the last retry failed). */
  disable?: { webhookId: string; reason: string; notice: AccountNoticeRow };
}

export class WebhookOutboxRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Leases up to `limit` due pushes (db/fair-claim.ts): the accounts holding the fewest leases first, each
   * account's oldest push first; never more than `caps.perEndpoint` unexpired leases on one endpoint nor
   * `caps.perAccount` on one account. An expired lease (a dead dispatcher) makes a push due again and no
   * longer counts.
   */
  async claimDue(
    owner: string,
    now: number,
    leaseUntil: number,
    limit: number,
    caps: PushCaps,
  ): Promise<WebhookOutboxRow[]> {
    // Without an fsync on the event loop, as the delivery queue's claims (unsynced-commits.ts).
    return unsyncedCommits(this.db, this.dialect, (db) =>
      claimFair<WebhookOutboxRow>(db, this.dialect, OUTBOX_QUEUE, owner, now, leaseUntil, limit, {
        perGroup: caps.perEndpoint,
        perTenant: caps.perAccount,
      }),
    );
  }

  /**
   * The endpoint, event and message of each claimed row (rows whose event is gone are left out). An
   * account event has no message: the left join gives it null.
   */
  async jobs(rows: WebhookOutboxRow[]): Promise<WebhookJob[]> {
    if (rows.length === 0) return [];
    const found = await this.db
      .selectFrom('webhook_outbox as o')
      .innerJoin('webhooks as w', 'w.id', 'o.webhook_id')
      .innerJoin('events as e', 'e.id', 'o.event_id')
      .leftJoin('messages as m', 'm.id', 'e.message_id')
      .selectAll('w')
      .select([
        'o.id as o_id',
        'e.id as e_id',
        'e.type as e_type',
        'e.created_at as e_created_at',
        'e.data as e_data',
        'm.id as m_id',
        'm.from_name',
        'm.from_email',
        'm.to_name',
        'm.to_email',
        'm.subject',
        'm.created_at as m_created_at',
      ])
      .where(
        'o.id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return found.map((f) => ({
      outbox: byId.get(f.o_id)!,
      webhook: {
        id: f.id,
        account_id: f.account_id,
        url: f.url,
        description: f.description,
        event_types: f.event_types,
        enabled: f.enabled,
        disabled_reason: f.disabled_reason,
        secret: f.secret,
        previous_secret: f.previous_secret,
        previous_secret_until: f.previous_secret_until,
        created_at: f.created_at,
        updated_at: f.updated_at,
      },
      event: { id: f.e_id, type: f.e_type, created_at: f.e_created_at, data: f.e_data },
      message:
        f.m_id === null
          ? null
          : {
              id: f.m_id,
              from_name: f.from_name!,
              from_email: f.from_email!,
              to_name: f.to_name!,
              to_email: f.to_email!,
              subject: f.subject!,
              created_at: f.m_created_at!,
            },
    }));
  }

  /**
   * Records attempts, each with its consequences: the attempt row, the outbox row's new state and, when
   * the endpoint is being disabled, the endpoint and a notice for the account; all in one transaction
   * (group commit, as for delivery attempts). A record applies only while its owner still holds the
   * lease; its outcome is false when the lease was lost. (An endpoint's other pending pushes are skipped
   * when their turn comes: the dispatcher sends nothing to a disabled endpoint.)
   */
  async recordMany(records: WebhookAttemptRecord[]): Promise<boolean[]> {
    // Without an fsync on the event loop, as the delivery queue's records (unsynced-commits.ts): a
    // record lost to a power cut makes the push go again, which webhooks allow (at least once).
    return unsyncedCommits(this.db, this.dialect, (db) =>
      db.transaction().execute(async (trx) => {
        const applied: boolean[] = [];
        for (const r of records) applied.push(await this.recordOne(trx, r));
        return applied;
      }),
    );
  }

  private async recordOne(trx: Transaction<Database>, r: WebhookAttemptRecord): Promise<boolean> {
    const updated = await trx
      .updateTable('webhook_outbox')
      .set({
        status: r.status,
        next_attempt_at: r.nextAttemptAt,
        attempts: r.attempts,
        lease_owner: null,
        lease_expires_at: null,
      })
      .where('id', '=', r.outboxId)
      .where('lease_owner', '=', r.owner)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return false;
    if (r.attempt) await trx.insertInto('webhook_attempts').values(r.attempt).execute();
    if (r.disable) {
      await trx
        .updateTable('webhooks')
        .set({ enabled: 0, disabled_reason: r.disable.reason, updated_at: r.disable.notice.created_at })
        .where('id', '=', r.disable.webhookId)
        .execute();
      await trx.insertInto('account_notices').values(r.disable.notice).execute();
    }
    return true;
  }

  /**
   * Queues events again now (replays), each as a push of its own (`<event>:<webhook>:<replay id>`): an
   * earlier push of the same event, perhaps still in flight, keeps its own state. All or nothing: when
   * one endpoint already has `limit` replays pending (queued and not yet final, in flight or waiting for
   * a retry), nothing is queued and the answer is that endpoint's id. Exact under concurrency: SQLite has
   * one writer at a time and each insert counts in the same statement; PostgreSQL locks the endpoints'
   * rows first (in id order), because under READ COMMITTED two inserts would each count without the other.
   */
  async replay(pushes: ReplayPush[], now: number, limit: number): Promise<string | undefined> {
    try {
      await this.db.transaction().execute(async (trx) => {
        if (this.dialect === 'postgres') {
          const ids = [...new Set(pushes.map((p) => p.webhookId))].sort();
          await sql`select id from webhooks where id in (${sql.join(ids)}) order by id for no key update`.execute(
            trx,
          );
        }
        for (const p of pushes) {
          const r = await sql`insert into webhook_outbox (id, webhook_id, event_id, account_id, status,
              attempts, created_at, next_attempt_at, lease_owner, lease_expires_at, replay)
            select ${`${p.eventId}:${p.webhookId}:${p.replayId}`}, ${p.webhookId}, ${p.eventId},
              ${p.accountId}, 'pending', 0, ${now}, ${now}, null, null, 1
            where (select count(*) from webhook_outbox
                   where webhook_id = ${p.webhookId} and replay = 1 and next_attempt_at is not null) < ${limit}`.execute(
            trx,
          );
          if ((r.numAffectedRows ?? 0n) === 0n) throw new ReplaysFull(p.webhookId);
        }
      });
      return undefined;
    } catch (err) {
      if (err instanceof ReplaysFull) return err.webhookId;
      throw err;
    }
  }

  /** Records the attempt of a push made outside the outbox (the test route). */
  async insertAttempt(attempt: WebhookAttemptRow): Promise<void> {
    await this.db.insertInto('webhook_attempts').values(attempt).execute();
  }

  /** An endpoint's attempts, newest first, older than `beforeId` when given. */
  async attempts(
    accountId: string,
    webhookId: string,
    beforeId: string | undefined,
    limit: number,
  ): Promise<WebhookAttemptRow[]> {
    let q = this.db
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('webhook_id', '=', webhookId);
    if (beforeId) q = q.where('id', '<', beforeId);
    return q.orderBy('id', 'desc').limit(limit).execute();
  }

  /** Gives back every lease `owner` holds (graceful shutdown). */
  async releaseAll(owner: string): Promise<void> {
    await this.db
      .updateTable('webhook_outbox')
      .set({ lease_owner: null, lease_expires_at: null })
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** The earliest due time in the outbox, or undefined when nothing waits. */
  async nextDue(): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('webhook_outbox')
      .select((eb) => eb.fn.min('next_attempt_at').as('next'))
      .where('next_attempt_at', 'is not', null)
      .executeTakeFirst();
    return row?.next === null || row?.next === undefined ? undefined : Number(row.next);
  }

  /** The event of this account, for replay. */
  async findEvent(accountId: string, eventId: string): Promise<{ id: string; type: EventType } | undefined> {
    return this.db
      .selectFrom('events')
      .select(['id', 'type'])
      .where('account_id', '=', accountId)
      .where('id', '=', eventId)
      .executeTakeFirst();
  }
}

/** Rolls the replay transaction back when an endpoint has no room left. */
class ReplaysFull extends Error {
  constructor(readonly webhookId: string) {
    super(`webhook ${webhookId} has no room for another pending replay`);
  }
}
