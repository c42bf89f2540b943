// The TLS section of `txmail status` (operator-status.ts): whether MTA-STS policies are applied and how
// many are stored, yesterday's MX sessions by TLS result (what the day's TLS-RPT reports say), and
// whether those reports went out. Informational: a recipient's broken TLS is not the operator's alarm.
import { utcDay } from '../clock.js';
import type { MtaStsRepo } from '../db/mta-sts-repo.js';
import type { ReportSend, TlsReportsRepo } from '../db/tls-reports-repo.js';
import type { StsMode } from '../mta-sts/policy.js';
import type { StatusSection } from '../operator-status.js';

const DAY_MS = 86_400_000;

export interface TlsStatusFacts {
  mtaSts: boolean;
  tlsReports: boolean;
  /** Stored policies still applying, by mode. */
  policies: Record<StsMode, number>;
  /** The UTC day looked at (yesterday: the last day reported). */
  day: string;
  /** That day's MX sessions by result type. */
  results: Record<string, number>;
  /** That day's report tries. */
  sends: readonly ReportSend[];
  schedule: { nextRunAt: number; lastRunAt: number | null } | undefined;
}

/** Pure: the section from what was read. */
function tlsStatus(f: TlsStatusFacts, now: number): StatusSection {
  const iso = (t: number | null | undefined) =>
    t === null || t === undefined ? null : new Date(t).toISOString();
  const sessions = Object.values(f.results).reduce((a, b) => a + b, 0);
  const failures = Object.entries(f.results)
    .filter(([type]) => type !== 'success')
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  const failed = failures.reduce((a, [, n]) => a + n, 0);
  const sends = f.sends.filter((s) => s.rua !== '');
  const sent = sends.filter((s) => s.sent_at !== null);
  const waiting = sends.filter((s) => s.sent_at === null);
  const lines = [
    f.mtaSts
      ? `MTA-STS on: ${f.policies.enforce} enforce, ${f.policies.testing} testing, ${f.policies.none} none policies stored`
      : 'MTA-STS off (TXMAIL_MTA_STS=off): recipient policies are not applied',
    sessions === 0
      ? `no MX sessions counted on ${f.day}`
      : `${sessions} MX session${sessions === 1 ? '' : 's'} on ${f.day}, ${failed} with a TLS failure` +
        (failures.length > 0 ? ` (${failures.map(([t, n]) => `${t} ${n}`).join(', ')})` : ''),
  ];
  if (!f.tlsReports) {
    lines.push('TLS reports off (TXMAIL_TLS_REPORTS=off)');
  } else {
    const last = f.schedule?.lastRunAt ?? null;
    lines.push(
      `TLS reports for ${f.day}: ${sent.length} sent, ${waiting.length} not accepted yet` +
        (waiting[0]?.last_error ? ` (last error: ${waiting[0].last_error})` : '') +
        (last === null ? '; no run yet' : `; last run ${Math.max(0, Math.round((now - last) / 1000))} s ago`),
    );
  }
  return {
    name: 'tls',
    title: 'TLS (MTA-STS, TLS reports)',
    json: {
      mta_sts: f.mtaSts,
      policies: f.policies,
      day: f.day,
      sessions,
      results: f.results,
      tls_reports: f.tlsReports,
      reports_sent: sent.length,
      reports_waiting: waiting.map((s) => ({
        policy_domain: s.policy_domain,
        attempts: s.attempts,
        last_error: s.last_error,
      })),
      last_run_at: iso(f.schedule?.lastRunAt),
      next_run_at: iso(f.schedule?.nextRunAt),
    },
    lines,
    alert: false,
  };
}

export async function tlsSection(
  repos: {
    mtaSts: Pick<MtaStsRepo, 'modesAt'>;
    tlsReports: Pick<TlsReportsRepo, 'resultTotals' | 'sendsOn' | 'schedule'>;
  },
  settings: { mtaSts: boolean; tlsReports: boolean },
  now: number,
): Promise<StatusSection> {
  const day = utcDay(now - DAY_MS);
  return tlsStatus(
    {
      ...settings,
      policies: await repos.mtaSts.modesAt(now),
      day,
      results: await repos.tlsReports.resultTotals(day),
      sends: await repos.tlsReports.sendsOn(day),
      schedule: await repos.tlsReports.schedule(),
    },
    now,
  );
}
