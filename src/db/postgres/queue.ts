// The queue seam on PostgreSQL: the claim with SKIP LOCKED, so many workers claim at once without
// waiting on each other (a claim skips the accounts another claim is taking from, and never leases a
// row twice), and the record (queue-record.ts) in one Kysely transaction, whose statements Kysely writes
// with PostgreSQL's placeholders (statement.ts).
import { sql, type Kysely, type Transaction } from 'kysely';
import { claimFair, type FairCaps } from '../fair-claim.js';
import {
  appliedDeltas,
  appliedEvents,
  deadlineLaneStatement,
  expiredClaimStatement,
  nextDueStatement,
  releaseStatement,
  recordSteps,
  type AttemptRecord,
  type LanePick,
  type RecordOutcome,
  type RecordStatement,
  type RecordSteps,
  type StepResult,
} from '../queue-record.js';
import { DELIVERY_CAPS, DELIVERY_QUEUE } from '../queue-repo.js';
import { addReputationCounts } from '../reputation-repo.js';
import type { Database, MessageWithBody } from '../schema.js';
import type { QueueStore, RecordedAttempts } from '../seams.js';
import { executeStatement, queryStatement } from '../statement.js';
import { postgresWebhookEnqueue } from './webhook-enqueue.js';

export class PostgresQueueStore implements QueueStore {
  constructor(private readonly db: Kysely<Database>) {}

  claim(
    owner: string,
    now: number,
    leaseUntil: number,
    limit: number,
    caps: FairCaps = DELIVERY_CAPS,
  ): Promise<MessageWithBody[]> {
    // Each message with its body (message_bodies), read in the claim's own statement: '' for one without
    // a body row, as on SQLite; `sealed` true where the HTML is sealed (messages/sealed-html.ts).
    return claimFair<MessageWithBody>(
      this.db,
      'postgres',
      DELIVERY_QUEUE,
      owner,
      now,
      leaseUntil,
      limit,
      caps,
      sql`select leased.*, coalesce(b.html, '') as html, coalesce(b.sealed, 0) = 1 as sealed
          from leased left join message_bodies as b on b.message_id = leased.id`,
    );
  }

  claimDeadlineLane(
    owner: string,
    now: number,
    leaseUntil: number,
    pick: LanePick,
  ): Promise<MessageWithBody[]> {
    if (pick instanceof Map ? pick.size === 0 : (pick as { limit: number }).limit <= 0)
      return Promise.resolve([]);
    return queryStatement<MessageWithBody>(
      this.db,
      deadlineLaneStatement(owner, now, leaseUntil, pick, 'postgres'),
    );
  }

  async release(owner: string, ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await executeStatement(this.db, releaseStatement(owner, ids));
  }

  async claimExpired(
    owner: string,
    now: number,
    leaseUntil: number,
    limit: number,
  ): Promise<MessageWithBody[]> {
    const rows = await queryStatement<MessageWithBody>(
      this.db,
      expiredClaimStatement(owner, now, leaseUntil, limit, true),
    );
    return rows.map((r) => ({ ...r, html: '' }));
  }

  record(records: AttemptRecord[]): Promise<RecordedAttempts> {
    return this.db.transaction().execute(async (trx) => {
      // A fixed number of statements for the whole batch (queue-record.ts): each is a round trip.
      const outcomes = await runSteps(trx, recordSteps(records));
      // The batch's events in one statement (postgres/webhook-enqueue.ts).
      let pushes = 0;
      for (const s of postgresWebhookEnqueue.statements(appliedEvents(records, outcomes)))
        pushes += await executeStatement(trx, s);
      // Last, so a busy account's counts row is locked only until the commit (reputation-repo.ts).
      await addReputationCounts(trx, appliedDeltas(records, outcomes));
      return { outcomes, pushes };
    });
  }

  async nextDue(now: number): Promise<number | undefined> {
    const [row] = await queryStatement<{ next: number | null }>(this.db, nextDueStatement(now));
    const next = row?.next;
    return next === null || next === undefined ? undefined : Number(next);
  }
}

async function runSteps(trx: Transaction<Database>, steps: RecordSteps): Promise<RecordOutcome[]> {
  for (let step = steps.next(); ;) {
    if (step.done) return step.value;
    step = steps.next(await runStep(trx, step.value));
  }
}

async function runStep(trx: Transaction<Database>, s: RecordStatement): Promise<StepResult> {
  if (!s.returning) return { changes: await executeStatement(trx, s), ids: [] };
  const rows = await queryStatement<{ id: string }>(trx, s);
  return { changes: rows.length, ids: rows.map((r) => r.id) };
}
