// The golden fixtures of every report format (test/fixtures/inbound/<system>/, expectations in
// manifest.json), each read by the report parser and judged by decide-effects as the inbound processor
// would; then the figures of issue 16 over all of them (bench/bounce-fixtures.mjs prints the same for
// any build). What the classifier alone decides (the category, permanent or not, whether a hard
// bounce suppresses) is checked when the classifier gives categories; that no soft bounce suppresses
// an address is checked always.
import { describe, expect, it } from 'vitest';
import {
  describeFigures,
  figures,
  judge,
  loadManifest,
  VALUES,
  type Judged,
} from '../../bench/lib/bounce-fixtures.mjs';
import { parseReport } from '../../src/bounce/parse-report.js';
import { decideEffects } from '../../src/inbound/decide-effects.js';

const code = { parseReport, decideEffects };
const manifest = loadManifest();
const judged = new Map<string, Judged>();
const judgement = async (file: string) => {
  let j = judged.get(file);
  if (!j) {
    j = await judge(
      code,
      manifest.find((e) => e.file === file)!,
    );
    judged.set(file, j);
  }
  return j;
};
/** Whether this build's classifier gives categories (`BounceClass.category`). */
const classifierCategories = (j: Judged) =>
  j.report.kind === 'bounce' && j.report.recipients.some((r) => 'category' in r.classification);

describe('the golden fixtures', () => {
  it.each(manifest.map((e) => [e.file, e.expect.outcome] as const))('reads %s as %s', async (file) => {
    const j = await judgement(file);
    const { expect: want } = j;
    expect(j.outcome, `${file}: ${JSON.stringify(j.report).slice(0, 400)}`).toBe(want.outcome);
    if (want.format) expect(j.format).toBe(want.format);
    if (want.recipient) expect(j.recipients).toContain(want.recipient.replace('{{TO}}', VALUES.to));
    // Soft bounces never suppress, whoever classifies them.
    if (!want.suppress) expect(j.suppress).toBe(false);
    // The source's classifier gives categories (the bench's guard for older builds does not apply here).
    if (j.report.kind === 'bounce') expect(classifierCategories(j), file).toBe(true);
    expect(j.suppress).toBe(want.suppress);
    if (want.category) expect(j.category).toBe(want.category);
    if (want.type) expect(j.type).toBe(want.type);
  });
});

describe('the figures over the fixtures', () => {
  it('classifies every fixture right, recognises every complaint and suppresses no soft bounce', async () => {
    const results = await Promise.all(manifest.map((e) => judgement(e.file)));
    const f = figures(results);
    const summary = describeFigures(f);
    expect(f.right, summary).toBe(f.total);
    expect(f.complaintsRecognised, summary).toBe(f.complaints);
    expect(f.softSuppressed, summary).toBe(0);
    // Every hard bounce suppresses its address.
    expect(f.hardSuppressed, summary).toBe(f.hard);
    // Every format of the issue has fixtures.
    const systems = new Set(manifest.map((e) => e.file.split('/')[0]));
    for (const system of [
      'dsn',
      'postfix',
      'sendmail',
      'exim',
      'qmail',
      'exchange',
      'gmail',
      'yahoo',
      'aol',
      'domino',
      'groupwise',
      'courier',
      'mdaemon',
      'mailman',
      'listserv',
      'arf',
      'forwarded',
      'ses',
      'undetermined',
    ])
      expect(systems).toContain(system);
  });
});
