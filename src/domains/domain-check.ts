// One verification check of a sending domain: every expected record looked up through TXMAIL_DNS_SERVERS
// and compared, with what was seen. A temporary DNS failure is reported as `error`, never as `missing`,
// so it cannot fail a domain (domain-status.ts decides what an inconclusive check changes: nothing).
import { mailauthResolver } from '../dns/mailauth-resolver.js';
import { DnsError, type DnsResolver } from '../dns/resolver.js';
import { lookUpDkimKey } from './dkim-record-check.js';
import { dmarcGuidance, type DmarcPolicy } from './dmarc-guidance.js';
import type { ExpectedRecord, RecordKind } from './domain-records.js';
import { countSpfLookups, SPF_LOOKUP_LIMIT, spfRecords } from './spf-lookups.js';

export type RecordStatus = 'found' | 'missing' | 'wrong' | 'error';

export interface RecordFinding {
  record: RecordKind;
  status: RecordStatus;
  /** The relevant records the DNS answered at that name. */
  seen: string[];
  /** Why the record is wrong, or what failed (status error). */
  problems: string[];
  /** Works, but worth fixing. */
  warnings: string[];
}

export type CheckOutcome = 'pass' | 'fail' | 'inconclusive';

/**
 * Something about the domain as a whole that receivers hold against its mail, though verification
 * (SPF + DKIM) does not wait for it: the From domain cannot receive mail, or it has no DMARC record.
 */
export interface DomainWarning {
  code: 'no_mail_host' | 'null_mx' | 'dmarc_missing';
  severity: 'warning';
  message: string;
  /** The record that fixes it, when txmail can say what it is. */
  suggested?: { type: 'TXT'; name: string; value: string };
}

export interface DomainCheck {
  checked_at: number;
  /** pass: every required record found; fail: one is missing or wrong; inconclusive: DNS failed temporarily. */
  outcome: CheckOutcome;
  records: RecordFinding[];
  spf_lookups: number | null;
  dmarc: { policy: DmarcPolicy | null; guidance: string };
  /** Absent in checks stored before domain warnings existed. */
  warnings?: DomainWarning[];
}

export interface SpfProbe {
  /** The addresses mail leaves from (TXMAIL_SOURCE_IPS); empty when unknown. */
  sourceIps: string[];
  hostname: string;
}

export async function checkDomain(
  domain: string,
  expected: ExpectedRecord[],
  /** The public key the `dkim` record must publish (the domain's active RSA key). */
  dkimPublicKey: string,
  dns: DnsResolver,
  now: number,
  probe: SpfProbe = { sourceIps: [], hostname: 'localhost' },
): Promise<DomainCheck> {
  let spfLookups: number | null = null;
  let dmarc: DomainCheck['dmarc'] = { policy: null, guidance: '' };
  const mailHost = checkMailHost(domain, dns);
  const records = await Promise.all(
    expected.map(async (e): Promise<RecordFinding> => {
      switch (e.record) {
        case 'dkim':
          return checkDkim(e, dkimPublicKey, dns);
        case 'return_path_mx':
          return checkMx(e, dns);
        case 'spf': {
          const r = await checkSpf(e, dns, probe);
          spfLookups = r.lookups;
          return r.finding;
        }
        case 'dmarc': {
          const r = await checkDmarc(domain, e, dns);
          dmarc = r.dmarc;
          return r.finding;
        }
      }
    }),
  );
  const required = records.filter((_, i) => expected[i]!.required);
  const outcome: CheckOutcome = required.some((r) => r.status === 'missing' || r.status === 'wrong')
    ? 'fail'
    : required.some((r) => r.status === 'error')
      ? 'inconclusive'
      : 'pass';
  const warnings = [await mailHost, dmarcWarning(records, expected)].filter(
    (w): w is DomainWarning => w !== undefined,
  );
  return { checked_at: now, outcome, records, spf_lookups: spfLookups, dmarc, warnings };
}

/**
 * Can the From domain receive mail (an MX host, or an address for the implicit MX of RFC 5321 §5.1)?
 * Receivers penalise mail from a domain that cannot: replies and reports to it have nowhere to go.
 * Only a definite answer warns: a temporary DNS failure says nothing.
 */
async function checkMailHost(domain: string, dns: DnsResolver): Promise<DomainWarning | undefined> {
  const settle = <T>(p: Promise<T[]>) =>
    p.then(
      (found) => ({ found, definite: true }),
      (err: unknown) => ({
        found: [] as T[],
        definite: err instanceof DnsError && err.failure !== 'temporary',
      }),
    );
  const [mx, a, aaaa] = await Promise.all([
    settle(dns.mx(domain)),
    settle(dns.a(domain)),
    settle(dns.aaaa(domain)),
  ]);
  if (mx.found.length > 0) {
    // RFC 7505: a single MX of "." says the domain accepts no mail; §4.2 lets receivers refuse mail from it.
    if (!mx.found.every((m) => m.exchange === '' || m.exchange === '.')) return undefined;
    return {
      code: 'null_mx',
      severity: 'warning',
      message: `${domain} publishes a null MX record (RFC 7505: it accepts no mail), and receivers may refuse or penalise mail from a domain that cannot receive mail. Publish an MX record for a host that receives mail for ${domain}.`,
    };
  }
  if (a.found.length > 0 || aaaa.found.length > 0) return undefined;
  if (!mx.definite || !a.definite || !aaaa.definite) return undefined;
  return {
    code: 'no_mail_host',
    severity: 'warning',
    message: `${domain} has no MX record and no A or AAAA record, so it cannot receive mail: receivers penalise mail from a domain that cannot receive mail. Publish an MX record for ${domain}.`,
  };
}

/**
 * Gmail and Yahoo require a DMARC record (p=none is enough) from bulk senders since February 2024:
 * its absence is a warning with the record to start with, though verification does not need it.
 */
function dmarcWarning(records: RecordFinding[], expected: ExpectedRecord[]): DomainWarning | undefined {
  const i = records.findIndex((r) => r.record === 'dmarc');
  if (i < 0 || records[i]!.status !== 'missing') return undefined;
  const e = expected[i]!;
  return {
    code: 'dmarc_missing',
    severity: 'warning',
    message: `No DMARC record at ${e.name}: required by Gmail and Yahoo for bulk senders. Publish "${e.value}" to start: it only collects reports.`,
    suggested: { type: 'TXT', name: e.name, value: e.value },
  };
}

function finding(record: RecordKind, status: RecordStatus, seen: string[] = [], problems: string[] = []) {
  return { record, status, seen, problems, warnings: [] as string[] };
}

/** missing for "no such name / no such records", error for anything that may answer differently later. */
function failed(record: RecordKind, err: unknown): RecordFinding {
  if (err instanceof DnsError && err.failure !== 'temporary') return finding(record, 'missing');
  return finding(record, 'error', [], [err instanceof Error ? err.message : String(err)]);
}

async function checkDkim(e: ExpectedRecord, publicKey: string, dns: DnsResolver): Promise<RecordFinding> {
  const found = await lookUpDkimKey(dns, e.name, publicKey, 'rsa-sha256');
  return finding('dkim', found.status, found.seen, found.problems);
}

async function checkMx(e: ExpectedRecord, dns: DnsResolver): Promise<RecordFinding> {
  let mx;
  try {
    mx = await dns.mx(e.name);
  } catch (err) {
    return failed('return_path_mx', err);
  }
  const seen = mx.map((m) => `${m.priority} ${m.exchange || '.'}`);
  const host = (h: string) => h.toLowerCase().replace(/\.$/, '');
  const ours = mx.filter((m) => host(m.exchange) === host(e.value));
  if (ours.length === 0) {
    return finding('return_path_mx', 'wrong', seen, [`no MX record points at ${e.value}`]);
  }
  const f = finding('return_path_mx', 'found', seen);
  const best = Math.min(...ours.map((m) => m.priority));
  // RFC 5321 §5.1: senders try the lowest preference first; bounces would go to the other host.
  if (mx.some((m) => host(m.exchange) !== host(e.value) && m.priority <= best)) {
    f.warnings.push(
      `other MX hosts at ${e.name} take precedence over ${e.value}; bounces may not reach txmail`,
    );
  }
  return f;
}

async function checkSpf(
  e: ExpectedRecord,
  dns: DnsResolver,
  probe: SpfProbe,
): Promise<{ finding: RecordFinding; lookups: number | null }> {
  let txt: string[];
  try {
    txt = await dns.txt(e.name);
  } catch (err) {
    return { finding: failed('spf', err), lookups: null };
  }
  const spf = spfRecords(txt);
  if (spf.length === 0) return { finding: finding('spf', 'missing', txt), lookups: null };
  if (spf.length > 1) {
    return {
      finding: finding('spf', 'wrong', spf, [
        `${spf.length} SPF records at ${e.name}; there must be exactly one (RFC 7208 §4.5: receivers answer permerror). Merge them into one record.`,
      ]),
      lookups: null,
    };
  }
  const record = spf[0]!;
  const include = /include:(\S+)/i.exec(e.value)![1]!.toLowerCase();
  const problems: string[] = [];
  const terms = record.toLowerCase().split(/\s+/);
  if (!terms.some((t) => t.replace(/^\+/, '').replace(/\.$/, '') === `include:${include}`)) {
    problems.push(`the record does not contain include:${include}`);
  }
  const count = await countSpfLookups(
    record,
    async (name) => {
      try {
        return spfRecords(await dns.txt(name));
      } catch (err) {
        if (err instanceof DnsError && err.failure !== 'temporary') return [];
        return undefined;
      }
    },
    e.name,
  );
  if (count.lookups > SPF_LOOKUP_LIMIT) {
    problems.push(
      `evaluating the record takes more than ${SPF_LOOKUP_LIMIT} DNS look-ups (RFC 7208 §4.6.4: receivers answer permerror); remove includes`,
    );
  }
  const f = finding('spf', problems.length > 0 ? 'wrong' : 'found', spf, problems);
  f.warnings.push(...count.problems);
  if (count.incomplete)
    f.warnings.push('some included records could not be looked up; the look-up count may be short');
  if (terms.some((t) => t === 'all' || t === '+all')) {
    f.warnings.push('"+all" lets every server on the internet send as this domain; end with ~all or -all');
  }
  if (f.status === 'found') f.warnings.push(...(await evaluateFromSourceIps(e.name, dns, probe)));
  return { finding: f, lookups: count.lookups };
}

/**
 * The record is right; does SPF pass for mail from the sending addresses, as a receiver evaluates it
 * (mailauth)? It does not when the SPF include domain does not list them: the operator's to fix, so a
 * warning, not a customer's wrong record.
 */
async function evaluateFromSourceIps(name: string, dns: DnsResolver, probe: SpfProbe): Promise<string[]> {
  // Loaded when first needed, as the DMARC look-up below: mailauth's modules are a large part of what
  // every process (an operator command too) would otherwise load at its start.
  const { spf: evaluateSpf } = await import('mailauth/lib/spf/index.js');
  const resolver = mailauthResolver(dns);
  const warnings: string[] = [];
  for (const ip of probe.sourceIps.slice(0, 4)) {
    let r;
    try {
      r = await evaluateSpf({
        sender: `postmaster@${name}`,
        ip,
        helo: probe.hostname,
        mta: probe.hostname,
        resolver,
      } as Parameters<typeof evaluateSpf>[0]);
    } catch {
      continue; // a second opinion only: the record itself was checked above
    }
    if (r.status.result !== 'pass' && r.status.result !== 'temperror') {
      warnings.push(
        `SPF evaluates to ${r.status.result} for mail sent from ${ip}: the service's SPF include domain does not authorize it (tell the operator)`,
      );
    }
  }
  return warnings;
}

async function checkDmarc(
  domain: string,
  e: ExpectedRecord,
  dns: DnsResolver,
): Promise<{ finding: RecordFinding; dmarc: DomainCheck['dmarc'] }> {
  let record;
  try {
    const { default: getDmarcRecord } = await import('mailauth/lib/dmarc/get-dmarc-record.js');
    const resolve = mailauthResolver(dns);
    record = await getDmarcRecord(domain, (name, type) => resolve(name, type) as Promise<string[][]>);
  } catch (err) {
    return { finding: failed('dmarc', err), dmarc: { policy: null, guidance: dmarcGuidance(null, e.value) } };
  }
  if (!record) {
    return {
      finding: finding('dmarc', 'missing'),
      dmarc: { policy: null, guidance: dmarcGuidance(null, e.value) },
    };
  }
  const p = String(record.p ?? '').toLowerCase();
  if (p !== 'none' && p !== 'quarantine' && p !== 'reject') {
    return {
      finding: finding(
        'dmarc',
        'wrong',
        [record.rr],
        [`p=${p || '(none)'} is not a DMARC policy (none, quarantine or reject)`],
      ),
      dmarc: { policy: null, guidance: dmarcGuidance(null, e.value) },
    };
  }
  const f = finding('dmarc', 'found', [record.rr]);
  if (record.isOrgRecord) f.warnings.push(`the policy comes from the organizational domain's _dmarc record`);
  // RFC 7489 §3.1.2: strict SPF alignment needs the envelope domain to equal the From domain, and
  // txmail's envelope is the return-path subdomain: such mail passes DMARC through DKIM alone.
  if (String(record.aspf ?? '').toLowerCase() === 's') {
    f.warnings.push(
      'aspf=s: SPF never aligns for mail sent through txmail (its envelope domain is the return-path subdomain); DMARC still passes through DKIM',
    );
  }
  if (typeof record.pct === 'number' && record.pct < 100) {
    f.warnings.push(`pct=${record.pct}: the policy applies to only ${record.pct} % of failing mail`);
  }
  return { finding: f, dmarc: { policy: p, guidance: dmarcGuidance(p, e.value) } };
}
