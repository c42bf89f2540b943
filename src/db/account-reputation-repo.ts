// An account's reputation state (ARCHITECTURE.md, "Reputation guardrails"): reading it, and moving it
// with its consequences. Every move is a conditional UPDATE from the status it was judged in, so when
// several processes judge the same account at once exactly one of them moves it and writes the notice,
// the webhook event and the audit entry (in the same transaction); the others see no row updated and
// do nothing.
import { sql, type Kysely } from 'kysely';
import type { ReputationStatus } from '../reputation/judge.js';
import { HOLD_MS } from '../reputation/thresholds.js';
import { Signal } from '../wake-signals.js';
import type { AccountNoticeRow, AuditLogRow, Database, NewEvent } from './schema.js';
import { enqueueWebhookEvents } from './webhook-enqueue.js';

export interface AccountReputationState {
  status: ReputationStatus;
  reason: string | null;
  changedAt: number | null;
}

export interface ReputationMove {
  accountId: string;
  from: ReputationStatus;
  /**
   * The reputation_changed_at the judgement read with `from`: the move applies only if neither changed
   * since, so a judgement made before a pause and a resume (whose window the resume zeroed) never
   * applies after them, though the status is back where it was.
   */
  fromChangedAt: number | null;
  to: ReputationStatus;
  reason: string | null;
  now: number;
  /** Written only when the move applies. */
  notice?: AccountNoticeRow;
  /** An account event (message_id null), fanned out to the subscribed endpoints in the same transaction. */
  event?: NewEvent;
  /** The account's audit entry of the move (audit/audit.ts auditRow), written only when it applies. */
  audit: AuditLogRow;
}

export class AccountReputationRepo {
  /** Emitted after a commit that queued webhook pushes (the dispatcher listens: wake-signals.ts). */
  readonly webhookPushesQueued: Signal;

  constructor(
    private readonly db: Kysely<Database>,
    webhookPushesQueued: Signal = new Signal(),
  ) {
    this.webhookPushesQueued = webhookPushesQueued;
  }

  async state(accountId: string): Promise<AccountReputationState | undefined> {
    const row = await this.db
      .selectFrom('accounts')
      .select(['reputation_status', 'reputation_reason', 'reputation_changed_at'])
      .where('id', '=', accountId)
      .executeTakeFirst();
    return (
      row && {
        status: row.reputation_status,
        reason: row.reputation_reason,
        changedAt: row.reputation_changed_at === null ? null : Number(row.reputation_changed_at),
      }
    );
  }

  /** Moves the account from `from` to `to`, only if it is still in `from`; true when this call moved it. */
  async move(m: ReputationMove): Promise<boolean> {
    let pushes = 0;
    const moved = await this.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('accounts')
        .set({ reputation_status: m.to, reputation_reason: m.reason, reputation_changed_at: m.now })
        .where('id', '=', m.accountId)
        .where('reputation_status', '=', m.from)
        .where((eb) =>
          m.fromChangedAt === null
            ? eb('reputation_changed_at', 'is', null)
            : eb('reputation_changed_at', '=', m.fromChangedAt),
        )
        .executeTakeFirst();
      if (r.numUpdatedRows === 0n) return false;
      await trx.insertInto('audit_log').values(m.audit).execute();
      if (m.notice) await trx.insertInto('account_notices').values(m.notice).execute();
      if (m.event) {
        await trx.insertInto('events').values(m.event).execute();
        pushes = await enqueueWebhookEvents(trx, [m.event]);
      }
      return true;
    });
    if (pushes > 0) this.webhookPushesQueued.emit();
    return moved;
  }

  /**
   * The operator lifts a pause: healthy, with the notice, and the mail the pause held is due now rather
   * than at the end of its hold. Held mail is the account's queued mail due within HOLD_MS (a hold
   * never schedules further); mail due later waits for its own retry (a backoff, a greylisting wait),
   * which the pause did not set. False when the account was not paused. `audit` is the account's
   * entry of the resume, written with it.
   */
  async resume(
    accountId: string,
    now: number,
    notice: AccountNoticeRow,
    audit: AuditLogRow,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('accounts')
        .set({ reputation_status: 'healthy', reputation_reason: null, reputation_changed_at: now })
        .where('id', '=', accountId)
        .where('reputation_status', '=', 'paused')
        .executeTakeFirst();
      if (r.numUpdatedRows === 0n) return false;
      await trx.insertInto('audit_log').values(audit).execute();
      await trx.insertInto('account_notices').values(notice).execute();
      await trx
        .updateTable('messages')
        .set({ next_attempt_at: now })
        .where('account_id', '=', accountId)
        .where('status', 'in', ['queued', 'deferred'])
        .where('next_attempt_at', '>', now)
        .where('next_attempt_at', '<=', now + HOLD_MS)
        .execute();
      return true;
    });
  }

  /** The accounts whose sends are paused (the partial index holds only accounts that are not healthy). */
  /**
   * The accounts whose customer mail waits in the queue (the delivery worker's hold): paused by the
   * reputation guard, or suspended by the operator.
   */
  async held(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('accounts')
      .select('id')
      .where((eb) => eb.or([eb('reputation_status', '=', 'paused'), eb('suspended_at', 'is not', null)]))
      .execute();
    return rows.map((r) => r.id);
  }

  /** Whether the account's customer mail waits (held), read now. */
  async isHeld(accountId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('accounts')
      .select(['reputation_status', 'suspended_at'])
      .where('id', '=', accountId)
      .executeTakeFirst();
    return row !== undefined && (row.reputation_status === 'paused' || row.suspended_at !== null);
  }

  async paused(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('reputation_status', '=', 'paused')
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * The state of every account that is not healthy or has ever moved (the sweep): any account missing
   * is healthy and never moved (changedAt null), which is all a move from it needs to be conditional
   * on. One scan of accounts per sweep.
   */
  async movedStates(): Promise<Map<string, AccountReputationState>> {
    const rows = await this.db
      .selectFrom('accounts')
      .select(['id', 'reputation_status', 'reputation_reason', 'reputation_changed_at'])
      .where((eb) =>
        eb.or([eb('reputation_status', '<>', 'healthy'), eb('reputation_changed_at', 'is not', null)]),
      )
      .execute();
    return new Map(
      rows.map((r) => [
        r.id,
        {
          status: r.reputation_status,
          reason: r.reputation_reason,
          changedAt: r.reputation_changed_at === null ? null : Number(r.reputation_changed_at),
        },
      ]),
    );
  }

  /** The accounts that are not healthy, with what `txmail status` shows of them (paused first). */
  async unhealthyAccounts(): Promise<
    { id: string; email: string; status: ReputationStatus; reason: string | null; changedAt: number | null }[]
  > {
    const rows = await this.db
      .selectFrom('accounts')
      .select(['id', 'email', 'reputation_status', 'reputation_reason', 'reputation_changed_at'])
      .where('reputation_status', '<>', 'healthy')
      .execute();
    return rows
      .map((r) => ({
        id: r.id,
        email: r.email,
        status: r.reputation_status,
        reason: r.reputation_reason,
        changedAt: r.reputation_changed_at === null ? null : Number(r.reputation_changed_at),
      }))
      .sort((a, b) =>
        a.status === b.status ? a.email.localeCompare(b.email) : a.status === 'paused' ? -1 : 1,
      );
  }

  /** How many accounts are in each status (/metrics), in one query. */
  async countByStatus(): Promise<Record<ReputationStatus, number>> {
    const rows = await sql<{ status: ReputationStatus; n: string | number }>`
      select reputation_status as status, count(*) as n from accounts group by reputation_status`.execute(
      this.db,
    );
    const counts: Record<ReputationStatus, number> = { healthy: 0, warning: 0, paused: 0 };
    for (const r of rows.rows) if (r.status in counts) counts[r.status] = Number(r.n);
    return counts;
  }
}
