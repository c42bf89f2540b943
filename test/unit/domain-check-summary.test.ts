import { describe, expect, it } from 'vitest';
import { checkSummary } from '../../web/src/components/domain-check-summary.js';

type Status = 'found' | 'missing' | 'wrong' | 'error' | 'not_checked';
const record = (status: Status, required = true) =>
  ({
    record: 'spf',
    type: 'TXT',
    name: 'x',
    value: 'v',
    required,
    purpose: '',
    status,
    seen: [],
    problems: [],
    warnings: [],
  }) as const;
const checked = (status: 'verified' | 'pending', ...records: ReturnType<typeof record>[]) => ({
  status,
  unicode_name: 'bücher.example',
  records: records.map((r) => ({ ...r })),
});

describe("a domain check's sentence", () => {
  it('says verified, or how many required records are wrong', () => {
    expect(checkSummary(checked('verified', record('found')))).toBe('bücher.example is verified.');
    expect(checkSummary(checked('pending', record('missing'), record('found')))).toBe(
      'Checked: 1 required record is not right yet.',
    );
    expect(
      checkSummary(checked('pending', record('missing'), record('wrong'), record('missing', false))),
    ).toBe('Checked: 2 required records are not right yet.');
  });

  it('tells a failed look-up apart from a wrong record', () => {
    expect(checkSummary(checked('pending', record('error'), record('error'), record('error')))).toBe(
      'Checked: 3 required records could not be checked (the DNS look-up failed; try again in a moment).',
    );
    expect(checkSummary(checked('pending', record('wrong'), record('error')))).toBe(
      'Checked: 1 required record is not right yet; 1 required record could not be checked (the DNS look-up failed; try again in a moment).',
    );
    expect(checkSummary(checked('pending', record('found')))).toBe(
      'Checked: bücher.example is not verified yet.',
    );
  });
});
