// Reputation counts (ARCHITECTURE.md, "Reputation counts"): per account, sending domain and UTC day,
// what happened to its mail. Written by the transactions that change a message's state (the queue
// stores, postgres/queue.ts and sqlite/queue.ts, and inbound-repo.ts, through addReputationCounts /
// prepareReputationCounts); read here as the rolling window the reputation judge weighs and the
// activity per day the dashboard draws.
//
// The service's own mail (from the test domain) is counted in the activity but never in a window (nor
// in the activity's window columns): a tenant's guided tests say nothing about its list.
import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { dayBefore, sumDeltas, type ReputationDelta } from '../reputation/counts.js';
import type { ReputationWindow } from '../reputation/judge.js';
import type { Database } from './schema.js';

/** One day of an account's activity (GET /api/account/activity). */
export interface ActivityDay {
  date: string;
  sent: number;
  delivered: number;
  bounced: number;
  complained: number;
  /**
   * The day's share of the window, as the guard counts it (test domain left out): messages that
   * reached a final state, bounces that say the address is bad, spam complaints. Zeroed with the rest
   * of the window when the operator resumes the account (resetWindow).
   */
  final: number;
  bad_bounces: number;
  spam_complaints: number;
}

export class ReputationRepo {
  /**
   * `testDomain`: the service's own sending domain (TXMAIL_TEST_DOMAIN), left out of every window;
   * undefined leaves nothing out.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly testDomain: string | undefined,
  ) {}

  /** Sums of the window columns over days >= fromDay, excluding the test domain. */
  async window(accountId: string, fromDay: string): Promise<ReputationWindow> {
    const row = await this.windowQuery(fromDay).where('account_id', '=', accountId).executeTakeFirst();
    return toWindow(row);
  }

  async windowByDomain(
    accountId: string,
    fromDay: string,
  ): Promise<(ReputationWindow & { domain: string })[]> {
    const rows = await this.windowQuery(fromDay)
      .select('domain')
      .where('account_id', '=', accountId)
      .groupBy('domain')
      .orderBy('domain')
      .execute();
    return rows.map((r) => ({ domain: r.domain, ...toWindow(r) })).filter((w) => !emptyWindow(w));
  }

  /** Every account with anything in its window (metrics, periodic sweep). One grouped query. */
  async windows(fromDay: string): Promise<(ReputationWindow & { accountId: string })[]> {
    const rows = await this.windowQuery(fromDay)
      .select('account_id')
      .groupBy('account_id')
      .orderBy('account_id')
      .execute();
    return rows.map((r) => ({ accountId: r.account_id, ...toWindow(r) })).filter((w) => !emptyWindow(w));
  }

  /** Every account's sending domains with anything in their window (metrics). One grouped query. */
  async domainWindows(
    fromDay: string,
  ): Promise<(ReputationWindow & { accountId: string; domain: string })[]> {
    const rows = await this.windowQuery(fromDay)
      .select(['account_id', 'domain'])
      .groupBy(['account_id', 'domain'])
      .orderBy('account_id')
      .orderBy('domain')
      .execute();
    return rows
      .map((r) => ({ accountId: r.account_id, domain: r.domain, ...toWindow(r) }))
      .filter((w) => !emptyWindow(w));
  }

  /**
   * Activity per day fromDay..toDay inclusive, oldest first, every day present (zeros filled). The
   * window columns leave the test domain out, as window() does, so a day's rates are the guard's.
   */
  async activity(accountId: string, fromDay: string, toDay: string): Promise<ActivityDay[]> {
    const td = this.testDomain;
    const windowSum = (c: 'final' | 'bad_bounces' | 'spam_complaints') =>
      td === undefined
        ? sql<number>`sum(${sql.ref(c)})`
        : sql<number>`sum(case when domain = ${td} then 0 else ${sql.ref(c)} end)`;
    const rows = await this.db
      .selectFrom('reputation_counts')
      .select((eb) => [
        'day',
        eb.fn.sum<number>('sent').as('sent'),
        eb.fn.sum<number>('delivered').as('delivered'),
        eb.fn.sum<number>('bounced').as('bounced'),
        eb.fn.sum<number>('complained').as('complained'),
        windowSum('final').as('final'),
        windowSum('bad_bounces').as('bad_bounces'),
        windowSum('spam_complaints').as('spam_complaints'),
      ])
      .where('account_id', '=', accountId)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .groupBy('day')
      .execute();
    const byDay = new Map(rows.map((r) => [r.day, r]));
    const days: ActivityDay[] = [];
    for (let ms = Date.parse(`${fromDay}T00:00:00Z`); ; ms += 86_400_000) {
      const date = dayBefore(ms, 0);
      if (date > toDay) break;
      const r = byDay.get(date);
      days.push({
        date,
        sent: Number(r?.sent ?? 0),
        delivered: Number(r?.delivered ?? 0),
        bounced: Number(r?.bounced ?? 0),
        complained: Number(r?.complained ?? 0),
        final: Number(r?.final ?? 0),
        bad_bounces: Number(r?.bad_bounces ?? 0),
        spam_complaints: Number(r?.spam_complaints ?? 0),
      });
    }
    return days;
  }

  /** A resumed account starts a fresh window: zero its window columns (activity kept). */
  async resetWindow(accountId: string): Promise<void> {
    await this.db
      .updateTable('reputation_counts')
      .set({ final: 0, bad_bounces: 0, spam_complaints: 0 })
      .where('account_id', '=', accountId)
      .execute();
  }

  private windowQuery(fromDay: string) {
    let q = this.db
      .selectFrom('reputation_counts')
      .select((eb) => [
        eb.fn.sum<number>('final').as('messages'),
        eb.fn.sum<number>('bad_bounces').as('bounced'),
        eb.fn.sum<number>('spam_complaints').as('complained'),
      ])
      .where('day', '>=', fromDay);
    if (this.testDomain !== undefined) q = q.where('domain', '!=', this.testDomain);
    return q;
  }
}

/** Sums come back null over no row, and as text (bigint) from PostgreSQL. */
function toWindow(
  row: { messages: number | null; bounced: number | null; complained: number | null } | undefined,
): ReputationWindow {
  return {
    messages: Number(row?.messages ?? 0),
    bounced: Number(row?.bounced ?? 0),
    complained: Number(row?.complained ?? 0),
  };
}

function emptyWindow(w: ReputationWindow): boolean {
  return w.messages === 0 && w.bounced === 0 && w.complained === 0;
}

/** The count columns in the order both writers bind them. */
const COLUMNS = [
  ['sent', 'sent'],
  ['delivered', 'delivered'],
  ['bounced', 'bounced'],
  ['complained', 'complained'],
  ['final', 'final'],
  ['bad_bounces', 'badBounces'],
  ['spam_complaints', 'spamComplaints'],
] as const;

/**
 * Adds deltas inside the caller's transaction: one upsert for all of them, summed per row first
 * (sumDeltas: a PostgreSQL upsert may not touch a row twice, and rows are locked in key order). Meant
 * to be the transaction's last statement, so a busy account's row is locked only until the commit.
 */
export async function addReputationCounts(
  trx: Kysely<Database>,
  deltas: readonly ReputationDelta[],
): Promise<void> {
  if (deltas.length === 0) return;
  const rows = sumDeltas(deltas);
  await trx
    .insertInto('reputation_counts')
    .values(
      rows.map((d) => ({
        account_id: d.accountId,
        domain: d.domain,
        day: d.day,
        ...Object.fromEntries(COLUMNS.map(([c, f]) => [c, d[f]])),
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'day', 'domain'])
        .doUpdateSet(
          Object.fromEntries(
            COLUMNS.map(([c]) => [
              c,
              sql<number>`${sql.ref(`reputation_counts.${c}`)} + ${sql.ref(`excluded.${c}`)}`,
            ]),
          ),
        ),
    )
    .execute();
}

/**
 * The same for SQLite's prepared-statement path (sqlite/queue.ts): one cached statement, run once
 * per row of the batch, inside the caller's transaction.
 */
export function prepareReputationCounts(
  sqlite: SQLite.Database,
): (deltas: readonly ReputationDelta[]) => void {
  const upsert = sqlite.prepare<unknown[]>(
    `insert into reputation_counts (account_id, day, domain, ${COLUMNS.map(([c]) => c).join(', ')})
     values (?, ?, ?, ${COLUMNS.map(() => '?').join(', ')})
     on conflict (account_id, day, domain) do update set
       ${COLUMNS.map(([c]) => `${c} = ${c} + excluded.${c}`).join(', ')}`,
  );
  return (deltas) => {
    for (const d of sumDeltas(deltas)) {
      upsert.run(d.accountId, d.day, d.domain, ...COLUMNS.map(([, f]) => d[f]));
    }
  };
}
