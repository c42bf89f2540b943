// TLS-RPT (tls-reports/, ARCHITECTURE.md "TLS policy"): the session counts every process adds to, the
// reports sent per (policy domain, day, rua), and the schedule row that elects the process that sends.
import { sql, type Kysely } from 'kysely';
import { policyHash, type SessionCount } from '../tls-reports/counts.js';
import { RunScheduleRepo } from './run-schedule-repo.js';
import type { Database, TlsReportSendsTable } from './schema.js';

/** Upserts per statement batch (one transaction per flush). */
const CHUNK = 200;

export type ReportSend = TlsReportSendsTable;

/** The claim of the daily reports's runs (claimRun, extendRun, finishRun, releaseRun, schedule) is RunScheduleRepo's. */
export class TlsReportsRepo extends RunScheduleRepo {
  constructor(private readonly db: Kysely<Database>) {
    super(db, 'tls_report_schedule', 'reports');
  }

  /** Adds counts to the stored ones (every process adds its own: additive upserts). */
  async add(counts: readonly SessionCount[]): Promise<void> {
    if (counts.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < counts.length; i += CHUNK) {
        const rows = counts.slice(i, i + CHUNK).map((c) => ({
          day: c.day,
          policy_domain: c.policyDomain,
          policy_type: c.policyType,
          policy_hash: policyHash(c.policyStrings),
          policy_strings: JSON.stringify(c.policyStrings),
          result_type: c.resultType,
          mx_host: c.mxHost,
          receiving_ip: c.receivingIp,
          sending_ip: c.sendingIp,
          sessions: c.sessions,
        }));
        await trx
          .insertInto('tls_report_counts')
          .values(rows)
          .onConflict((oc) =>
            oc
              .columns([
                'day',
                'policy_domain',
                'policy_type',
                'policy_hash',
                'result_type',
                'mx_host',
                'receiving_ip',
                'sending_ip',
              ])
              .doUpdateSet({ sessions: sql<number>`tls_report_counts.sessions + excluded.sessions` }),
          )
          .execute();
      }
    });
  }

  /** The policy domains with sessions on `day`, by name. */
  async domainsOn(day: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('tls_report_counts')
      .select('policy_domain')
      .distinct()
      .where('day', '=', day)
      .orderBy('policy_domain')
      .execute();
    return rows.map((r) => r.policy_domain);
  }

  /** The day's sessions by result type (`success` or a failure type of RFC 8460 §4.3), all domains. */
  async resultTotals(day: string): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('tls_report_counts')
      .select(['result_type', (eb) => eb.fn.sum<number>('sessions').as('n')])
      .where('day', '=', day)
      .groupBy('result_type')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.result_type, Number(r.n)]));
  }

  async counts(day: string, policyDomain: string): Promise<SessionCount[]> {
    const rows = await this.db
      .selectFrom('tls_report_counts')
      .selectAll()
      .where('day', '=', day)
      .where('policy_domain', '=', policyDomain)
      .execute();
    return rows.map((r) => ({
      day: r.day,
      policyDomain: r.policy_domain,
      policyType: r.policy_type,
      policyStrings: JSON.parse(r.policy_strings) as string[],
      resultType: r.result_type,
      mxHost: r.mx_host,
      receivingIp: r.receiving_ip,
      sendingIp: r.sending_ip,
      sessions: Number(r.sessions),
    }));
  }

  /** What was tried for the day's reports (of one policy domain when given). */
  async sendsOn(day: string, policyDomain?: string): Promise<ReportSend[]> {
    let q = this.db.selectFrom('tls_report_sends').selectAll().where('day', '=', day);
    if (policyDomain !== undefined) q = q.where('policy_domain', '=', policyDomain);
    const rows = await q.execute();
    return rows.map((r) => ({
      ...r,
      attempts: Number(r.attempts),
      last_attempt_at: Number(r.last_attempt_at),
      sent_at: r.sent_at === null ? null : Number(r.sent_at),
    }));
  }

  /**
   * One try of a report: counted, and marked sent when it succeeded. Once sent it stays sent, with
   * its error cleared: a late failure of another try (a process whose run was taken over) changes
   * neither.
   */
  async recordSend(
    policyDomain: string,
    day: string,
    rua: string,
    now: number,
    error: string | null,
  ): Promise<void> {
    const sentAt = error === null ? now : null;
    await this.db
      .insertInto('tls_report_sends')
      .values({
        policy_domain: policyDomain,
        day,
        rua,
        attempts: 1,
        last_attempt_at: now,
        last_error: error,
        sent_at: sentAt,
      })
      .onConflict((oc) =>
        oc.columns(['policy_domain', 'day', 'rua']).doUpdateSet({
          attempts: sql<number>`tls_report_sends.attempts + 1`,
          last_attempt_at: now,
          last_error: sql<
            string | null
          >`case when tls_report_sends.sent_at is null then excluded.last_error else tls_report_sends.last_error end`,
          sent_at: sql<number | null>`coalesce(tls_report_sends.sent_at, excluded.sent_at)`,
        }),
      )
      .execute();
  }

  /** Forgets counts and sends of days before `day`. */
  async deleteBefore(day: string): Promise<number> {
    const a = await this.db.deleteFrom('tls_report_counts').where('day', '<', day).executeTakeFirst();
    const b = await this.db.deleteFrom('tls_report_sends').where('day', '<', day).executeTakeFirst();
    return Number(a.numDeletedRows) + Number(b.numDeletedRows);
  }
}
