// The golden bounce and complaint fixtures (test/fixtures/inbound, manifest.json) judged against a
// build of the report parser: what each fixture comes to (the event decide-effects would record, the
// suppression, the category), and the figures issue 16 measures: classified right, hard bounces that
// suppress, soft bounces that do (must be none), complaints recognised. Shared by
// test/unit/inbound-fixtures.test.ts (the source) and bench/bounce-fixtures.mjs (any build, main's too), so
// the code under judgement is passed in.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const FIXTURE_DIR = fileURLToPath(new URL('../../test/fixtures/inbound/', import.meta.url));

/** The sent message every fixture reports on (its VERP address, Message-ID and recipient). */
export const VALUES = {
  verp: `b+${'0'.repeat(32)}${'a'.repeat(16)}@send.acme.example`,
  messageId: '019ab000-0000-7000-8000-000000000001@mta.txmail.test',
  to: 'jane@recipient.example',
  returnPathDomain: 'send.acme.example',
};

export function loadManifest() {
  return JSON.parse(readFileSync(`${FIXTURE_DIR}manifest.json`, 'utf8')).fixtures;
}

/** A fixture with its placeholders filled, CRLF line ends. */
export function fixtureBytes(file, values) {
  const text = readFileSync(`${FIXTURE_DIR}${file}`, 'utf8')
    .replaceAll('{{VERP}}', values.verp)
    .replaceAll('{{MESSAGE_ID}}', values.messageId)
    .replaceAll('{{TO_DOMAIN}}', values.to.split('@')[1])
    .replaceAll('{{TO}}', values.to)
    .replaceAll('{{RETURN_PATH_DOMAIN}}', values.returnPathDomain);
  return Buffer.from(text.replace(/\r?\n/g, '\r\n'));
}

const OUTCOME = {
  'email.bounced': 'bounced',
  'email.delivery_delayed': 'delayed',
  'email.complained': 'complaint',
  'email.report_received': 'recorded',
};

/**
 * What `entry` comes to with `code` ({parseReport, decideEffects}): `{file, expect, outcome, kind,
 * format, category, type, suppress, recipients, report}`. The report is matched to the message the
 * way the inbound processor does: by the envelope's VERP address, or for fbl@ by a VERP address in the
 * returned original, or for a complaint by our Message-ID when the original's recipient, if shown, is
 * the message's. (The processor also asks for our DKIM signature over that Message-ID, which a fixture
 * written by hand cannot carry: the judge measures the reading, test/inbound.test.ts the signature.)
 */
export async function judge(code, entry) {
  const to = entry.to ?? VALUES.to;
  const values = { ...VALUES, to };
  const report = await code.parseReport(fixtureBytes(entry.file, values), { mailFrom: entry.from ?? '' });
  const result = {
    file: entry.file,
    expect: entry.expect,
    outcome: 'nothing',
    kind: report.kind,
    format: report.format,
    category: undefined,
    type: undefined,
    suppress: false,
    recipients: recipientsOf(report),
    report,
  };
  if (report.kind === 'auto_reply') return { ...result, outcome: 'auto_reply', category: 'auto_reply' };
  if (!matches(report, entry.rcpt ?? 'verp', values)) return result;
  const decision = code.decideEffects({
    report,
    target: {
      id: VALUES.messageId.split('@')[0],
      account_id: 'account',
      status: 'delivered',
      to_email: to,
      to_domain: to.split('@')[1],
    },
    inboundId: 'fixture',
    repeatedDisabled: false,
    newId: () => 'id',
    mailFrom: entry.from ?? '',
  });
  if (!('effect' in decision)) return result;
  const { event, suppression } = decision.effect;
  let outcome = OUTCOME[event.type] ?? event.type;
  if (outcome === 'complaint' && event.data.category === 'unsubscribe') outcome = 'unsubscribe';
  const chosen = report.kind === 'bounce' ? chosenClass(report, event.data, to) : undefined;
  return {
    ...result,
    outcome,
    // A bounce's event names the recipient it is about (ours when the report names it) and, when the
    // report's entry for it names another final address (an alias's target), that one too.
    recipients:
      report.kind === 'bounce' && event.data.recipient
        ? [event.data.recipient, event.data.final_recipient].filter(Boolean)
        : result.recipients,
    category: event.data.category ?? chosen?.category,
    type: event.data.bounce_type ?? chosen?.type,
    suppress: suppression !== undefined,
  };
}

function recipientsOf(report) {
  if (report.kind === 'bounce') return report.recipients.map((r) => r.recipient).filter(Boolean);
  if (report.kind === 'complaint' || report.kind === 'feedback') {
    if (report.originalRcptTos?.length) return report.originalRcptTos;
    const shown = report.originalRcptTo ?? report.original?.to;
    return shown ? [shown] : [];
  }
  return [];
}

/** The classification of the recipient the event is about (the event names its address and reply). */
function chosenClass(report, data, to) {
  const r = report.recipients.find(
    (x) =>
      ((x.recipient ?? to) === data.recipient || x.originalRecipient === data.recipient) &&
      (x.diagnostic ?? null) === data.diagnostic_code,
  );
  return (r ?? report.recipients[0])?.classification;
}

function matches(report, rcpt, values) {
  if (rcpt === 'verp') return true;
  if (report.kind === 'undetermined') return false;
  const original = report.original ?? { verpAddresses: [] };
  if (original.verpAddresses.includes(values.verp)) return true;
  if (report.kind !== 'complaint' && report.kind !== 'feedback') return false;
  if (original.messageId?.toLowerCase() !== values.messageId) return false;
  // As the inbound processor: the report must not show only recipients that are not ours.
  const shown = report.originalRcptTos?.length
    ? report.originalRcptTos
    : [report.originalRcptTo ?? original.to].filter(Boolean);
  const ours = (a) => a === values.to || a.endsWith(`@${values.to.split('@')[1]}`);
  return shown.length === 0 || shown.some(ours);
}

/** The figures of issue 16 over judged fixtures. */
export function figures(results) {
  const right = results.filter((r) => r.outcome === r.expect.outcome);
  const hard = results.filter((r) => r.expect.outcome === 'bounced' && r.expect.suppress);
  const soft = results.filter(
    (r) => (r.expect.outcome === 'bounced' || r.expect.outcome === 'delayed') && !r.expect.suppress,
  );
  const complaints = results.filter(
    (r) => r.expect.outcome === 'complaint' || r.expect.outcome === 'unsubscribe',
  );
  const categorised = results.filter((r) => r.expect.category !== undefined && r.category !== undefined);
  const byOutcome = {};
  for (const r of results) {
    const o = (byOutcome[r.expect.outcome] ??= { total: 0, right: 0 });
    o.total++;
    if (r.outcome === r.expect.outcome) o.right++;
  }
  return {
    total: results.length,
    right: right.length,
    byOutcome,
    hard: hard.length,
    hardSuppressed: hard.filter((r) => r.suppress).length,
    soft: soft.length,
    softSuppressed: soft.filter((r) => r.suppress).length,
    complaints: complaints.length,
    complaintsRecognised: complaints.filter((r) => r.outcome === r.expect.outcome).length,
    categorised: categorised.length,
    categoriesRight: categorised.filter((r) => r.category === r.expect.category).length,
    misses: results
      .filter(
        (r) =>
          r.outcome !== r.expect.outcome ||
          r.suppress !== r.expect.suppress ||
          (r.category !== undefined && r.expect.category !== undefined && r.category !== r.expect.category),
      )
      .map((r) => ({
        file: r.file,
        expected: `${r.expect.outcome}${r.expect.category ? `/${r.expect.category}` : ''}${r.expect.suppress ? ' suppress' : ''}`,
        got: `${r.outcome}${r.category ? `/${r.category}` : ''}${r.suppress ? ' suppress' : ''} (${r.kind}${r.type ? `, ${r.type}` : ''})`,
      })),
  };
}

const pct = (n, d) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)} %`);

/** The figures as lines of text. */
export function describeFigures(f) {
  const lines = [
    `classified right:        ${f.right}/${f.total} (${pct(f.right, f.total)})`,
    ...Object.entries(f.byOutcome).map(
      ([outcome, o]) => `  ${`${outcome}:`.padEnd(22)} ${o.right}/${o.total}`,
    ),
    `hard bounces suppressed: ${f.hardSuppressed}/${f.hard} (${pct(f.hardSuppressed, f.hard)})`,
    `soft bounces suppressed: ${f.softSuppressed}/${f.soft} (must be 0)`,
    `complaints recognised:   ${f.complaintsRecognised}/${f.complaints} (${pct(f.complaintsRecognised, f.complaints)})`,
    `categories right:        ${f.categoriesRight}/${f.categorised}${f.categorised === 0 ? ' (the classifier gives none)' : ` (${pct(f.categoriesRight, f.categorised)})`}`,
  ];
  if (f.misses.length) {
    lines.push('misses:');
    for (const m of f.misses) lines.push(`  ${m.file}: expected ${m.expected}, got ${m.got}`);
  }
  return lines.join('\n');
}
