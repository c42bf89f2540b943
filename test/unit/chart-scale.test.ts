// The dashboard's chart axes and rate formats (web/src/components/chart-scale.ts, format.ts): round
// ticks for empty, small and lopsided data, and rates written as the server writes them in reasons.
import { describe, expect, it } from 'vitest';
import { percent } from '../../src/reputation/judge.js';
import { axisFor, compactNumber, dayLabel } from '../../web/src/components/chart-scale.js';
import { formatLimit, formatPercent } from '../../web/src/components/format.js';

describe('chart axes', () => {
  it('gives an empty plot a plain 0..N axis', () => {
    expect(axisFor(0)).toEqual({ top: 4, ticks: [0, 1, 2, 3, 4] });
    expect(axisFor(0, 4, false)).toEqual({ top: 1, ticks: [0, 0.25, 0.5, 0.75, 1] });
  });

  it('holds the maximum in round whole steps', () => {
    expect(axisFor(7)).toEqual({ top: 8, ticks: [0, 2, 4, 6, 8] });
    expect(axisFor(940)).toEqual({ top: 1000, ticks: [0, 500, 1000] });
    expect(axisFor(1)).toEqual({ top: 1, ticks: [0, 1] });
  });

  it('keeps a huge day on a handful of round ticks', () => {
    const axis = axisFor(1_200_000);
    expect(axis.top).toBe(1_500_000);
    expect(axis.ticks).toEqual([0, 500_000, 1_000_000, 1_500_000]);
    expect(axis.ticks.map(compactNumber)).toEqual(['0', '500k', '1M', '1.5M']);
  });

  it('steps rates in fractions', () => {
    const axis = axisFor(0.125, 4, false);
    expect(axis.ticks.map(formatLimit)).toEqual(['0 %', '5 %', '10 %', '15 %']);
    expect(axisFor(0.00625, 4, false).ticks.map(formatLimit)).toEqual([
      '0 %',
      '0.2 %',
      '0.4 %',
      '0.6 %',
      '0.8 %',
    ]);
  });

  it('names a UTC day the same in every time zone', () => {
    expect(dayLabel('2026-11-24')).toBe('Nov 24');
    expect(dayLabel('2026-11-24', true)).toBe('Tue, Nov 24, 2026');
  });
});

describe('rates', () => {
  it('are written as the server writes them in its reasons', () => {
    for (const f of [0, 0.0004, 0.001, 0.0016, 0.052, 0.1, 0.125, 0.3, 1]) {
      expect(formatPercent(f)).toBe(percent(f));
    }
  });

  it('write thresholds without trailing zeros', () => {
    expect([0.05, 0.1, 0.001, 0.005, 0.125].map(formatLimit)).toEqual([
      '5 %',
      '10 %',
      '0.1 %',
      '0.5 %',
      '12.5 %',
    ]);
  });
});
