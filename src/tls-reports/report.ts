// The aggregate report of one policy domain for one UTC day (RFC 8460 §4), its id and its file name
// (§5.3), and the `_smtp._tls` TXT record that says where it goes (§3). Pure.
import { createHash } from 'node:crypto';
import type { SessionCount } from './counts.js';
import { policyLine } from '../mta-sts/policy.js';

export interface FailureDetail {
  'result-type': string;
  'sending-mta-ip'?: string;
  'receiving-mx-hostname'?: string;
  'receiving-ip'?: string;
  'failed-session-count': number;
}

export interface ReportPolicy {
  policy: {
    'policy-type': 'sts' | 'no-policy-found';
    'policy-string'?: string[];
    'policy-domain': string;
    'mx-host'?: string[];
  };
  summary: { 'total-successful-session-count': number; 'total-failure-session-count': number };
  'failure-details'?: FailureDetail[];
}

export interface TlsRptReport {
  'organization-name': string;
  'date-range': { 'start-datetime': string; 'end-datetime': string };
  'contact-info': string;
  'report-id': string;
  policies: ReportPolicy[];
}

export interface ReportInput {
  /** The submitter: the service's host name. */
  organization: string;
  contact: string;
  day: string;
  policyDomain: string;
  counts: readonly SessionCount[];
}

/** The day's first and last second (RFC 8460 §4.4 date-range), and as epoch seconds (file name). */
export function dayRange(day: string): { start: string; end: string; begin: number; finish: number } {
  const begin = Date.parse(`${day}T00:00:00Z`) / 1000;
  return { start: `${day}T00:00:00Z`, end: `${day}T23:59:59Z`, begin, finish: begin + 86_399 };
}

/**
 * The report's id: the same for every try of one report (a receiver that got it twice can tell), and
 * free of the file name's separator `!`.
 */
export function reportId(submitter: string, policyDomain: string, day: string): string {
  const hash = createHash('sha256').update(`${submitter}\n${policyDomain}\n${day}`).digest('hex');
  return `${day}_${hash.slice(0, 24)}`;
}

/** `<submitter>!<policy-domain>!<begin>!<end>!<id>.json.gz` (RFC 8460 §5.3). */
export function reportFileName(submitter: string, policyDomain: string, day: string, id: string): string {
  const { begin, finish } = dayRange(day);
  return `${submitter}!${policyDomain}!${begin}!${finish}!${id}.json.gz`;
}

export function buildReport(input: ReportInput): TlsRptReport {
  const range = dayRange(input.day);
  const groups = new Map<string, SessionCount[]>();
  for (const c of input.counts) {
    const key = JSON.stringify([c.policyType, c.policyStrings]);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const policies: ReportPolicy[] = [];
  for (const rows of groups.values()) {
    const first = rows[0]!;
    const mx = first.policyStrings.flatMap((l) => {
      const field = policyLine(l);
      return field?.key === 'mx' && field.value !== '' ? [field.value] : [];
    });
    let ok = 0;
    let failed = 0;
    const details = new Map<string, FailureDetail>();
    for (const r of rows) {
      if (r.resultType === 'success') {
        ok += r.sessions;
        continue;
      }
      failed += r.sessions;
      const key = JSON.stringify([r.resultType, r.sendingIp, r.mxHost, r.receivingIp]);
      const held = details.get(key);
      if (held) {
        held['failed-session-count'] += r.sessions;
        continue;
      }
      details.set(key, {
        'result-type': r.resultType,
        ...(r.sendingIp ? { 'sending-mta-ip': r.sendingIp } : {}),
        ...(r.mxHost ? { 'receiving-mx-hostname': r.mxHost } : {}),
        ...(r.receivingIp ? { 'receiving-ip': r.receivingIp } : {}),
        'failed-session-count': r.sessions,
      });
    }
    const sorted = [...details.values()].sort(
      (a, b) =>
        b['failed-session-count'] - a['failed-session-count'] ||
        a['result-type'].localeCompare(b['result-type']),
    );
    policies.push({
      policy: {
        'policy-type': first.policyType,
        ...(first.policyStrings.length > 0 ? { 'policy-string': first.policyStrings } : {}),
        'policy-domain': input.policyDomain,
        ...(mx.length > 0 ? { 'mx-host': mx } : {}),
      },
      summary: { 'total-successful-session-count': ok, 'total-failure-session-count': failed },
      ...(sorted.length > 0 ? { 'failure-details': sorted } : {}),
    });
  }
  return {
    'organization-name': input.organization,
    'date-range': { 'start-datetime': range.start, 'end-datetime': range.end },
    'contact-info': input.contact,
    'report-id': reportId(input.organization, input.policyDomain, input.day),
    policies,
  };
}

/**
 * The `rua` URIs of a domain's `_smtp._tls` TXT records (RFC 8460 §3): exactly one record starting with
 * `v=TLSRPTv1`, its `rua` a comma-separated list; only `mailto:` and `https:` URIs are kept.
 */
export function parseTlsRptRecord(records: readonly string[]): { rua: string[] } | { error: string } {
  const rpt = records.filter((r) => /^v=TLSRPTv1\s*(;|$)/.test(r));
  if (rpt.length !== 1) return { error: rpt.length === 0 ? 'no v=TLSRPTv1 record' : 'several records' };
  let rua: string | undefined;
  for (const part of rpt[0]!.split(';')) {
    const m = /^\s*rua\s*=(.*)$/.exec(part);
    if (m && rua === undefined) rua = m[1]!.trim();
  }
  if (rua === undefined) return { error: 'no rua' };
  const uris = rua
    .split(',')
    .map((u) => u.trim())
    .filter((u) => /^mailto:[^@\s]+@[^@\s]+$/i.test(u) || /^https:\/\/\S+$/i.test(u));
  if (uris.length === 0) return { error: 'no mailto: or https: rua' };
  return { rua: uris };
}
