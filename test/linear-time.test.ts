// The linear-time check itself: it must pass a linear scan and catch a backtracking pattern, or the
// hostile-input suites that rely on it prove nothing.
import { describe, expect, it } from 'vitest';
import { assertLinearForShapes, fill, measureGrowth } from './helpers/linear-time.js';

describe('the linear-time check', () => {
  it('passes a linear scan on every generated shape', async () => {
    await assertLinearForShapes((s) => s.split('\n').map((l) => l.trim()).length, undefined, { numRuns: 8 });
  });

  it('catches a backtracking pattern on a run of spaces (the old address parser)', async () => {
    const backtracking = /^(.*?)\s*<([^<>]*)>$/s;
    await expect(
      measureGrowth(
        (s: string) => backtracking.exec(s),
        (size) => `a${' '.repeat(size)}b`,
        { sizes: [1 << 10, 4 << 10, 16 << 10, 64 << 10] },
      ),
    ).rejects.toThrow(/not linear/);
  });

  it('catches a scanner that rescans the rest of the input at every line', async () => {
    const rescanning = (s: string) => {
      let n = 0;
      // Looks for a terminator that never comes, from every line start to the end.
      for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) n += s.indexOf('z', i);
      return n;
    };
    await expect(
      // Up to 256 KiB: a native indexOf makes each rescan cheap, so the quadratic term only dominates
      // past 16 KiB.
      measureGrowth(rescanning, (size) => fill({ prefix: '', unit: 'x\n', suffix: '' }, size), {
        sizes: [4 << 10, 16 << 10, 64 << 10, 256 << 10],
      }),
    ).rejects.toThrow(/not linear/);
  });
});
