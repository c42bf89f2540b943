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

  // A virtual clock: each run costs its input's length times the cost per byte given for that size (read
  // as µs a byte, far above the 20 µs floor), so the decision itself is tested, without timing noise.
  const judged = (perByte: number[]) => {
    let now = 0;
    const sizes = [4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20];
    return measureGrowth(
      (s: string) => {
        now += s.length * perByte[sizes.indexOf(s.length)]!;
      },
      (size) => 'x'.repeat(size),
      { sizes, clock: () => now / 1e3 },
    );
  };

  it('allows one step up from 16 KiB that stays flat after it (V8 large objects)', async () => {
    await expect(judged([1, 1, 6, 6, 6])).resolves.toHaveLength(5);
    // From 16 KiB: an array with an element a byte of input is a large object there.
    await expect(judged([1, 6, 6, 6, 6])).resolves.toHaveLength(5);
    await expect(judged([1, 1, 1, 7, 8])).resolves.toHaveLength(5);
    // The step under the limit at 256 KiB, the limit passed at 1 MiB as dear per byte as 256 KiB.
    await expect(judged([1, 1, 1, 4.5, 6])).resolves.toHaveLength(5);
    // Up to three times the limit, if flat after (a very cheap scan's copy becoming a large object).
    await expect(judged([1, 1, 1, 14, 15])).resolves.toHaveLength(5);
    // A noisy reading before the step (2.5×, under the limit) does not make the step a growth.
    await expect(judged([1, 1, 2.5, 7, 7])).resolves.toHaveLength(5);
  });

  it('fails a second step, a step too large, or one at the last size', async () => {
    await expect(judged([1, 6, 12, 12, 12])).rejects.toThrow(
      /by 65536 B \(not linear, after a step at 16384 B\)/,
    );
    await expect(judged([1, 1, 6, 12, 12])).rejects.toThrow(
      /by 262144 B \(not linear, after a step at 65536 B\)/,
    );
    await expect(judged([1, 1, 1, 16, 16])).rejects.toThrow(/grew 16\.0× by 262144 B \(not linear\)/);
    // Under the limit at 256 KiB, then dearer again at 1 MiB: no step before it either.
    await expect(judged([1, 1, 1, 4.5, 9])).rejects.toThrow(/grew 9\.0× by 1048576 B \(not linear\)/);
    await expect(judged([1, 4, 16, 64, 256])).rejects.toThrow(/not linear/);
    // A quadratic cost that reads a little under 16× at 64 KiB is not a step: it was growing before
    // (the MTA-STS policy parser's, which took minutes at 256 KiB before it failed).
    await expect(judged([1, 3.6, 14.8, 59, 236])).rejects.toThrow(/grew 14\.8× by 65536 B \(not linear\)/);
    // At the last size nothing after it could show the cost flat: no step.
    await expect(judged([1, 1, 1, 1, 9])).rejects.toThrow(/grew 9\.0× by 1048576 B \(not linear\)/);
  });

  it('does not judge a function that returns at once where its input costs under 2 ms to copy', async () => {
    // The virtual clock in ns a byte: the runs up to 64 KiB at the 20 µs floor, then the input's copy
    // into fresh memory, a few ns a byte.
    const sizes = [4 << 10, 16 << 10, 64 << 10, 256 << 10];
    const measure = (perByteNs: number[]) => {
      let now = 0;
      return measureGrowth(
        (s: string) => {
          now += s.length * perByteNs[sizes.indexOf(s.length)]!;
        },
        (size) => 'x'.repeat(size),
        { sizes, clock: () => now / 1e6 },
      );
    };
    const growth = await measure([0.3, 0.3, 0.3, 5]);
    // Not judged, but its ratio is kept as measured.
    expect(growth.at(-1)!.ratio).toBeGreaterThan(15);
    // From 2 ms a run, judged.
    await expect(measure([0.3, 0.3, 0.3, 10])).rejects.toThrow(/by 262144 B \(not linear\)/);
    // Above the floor before, judged at any cost.
    await expect(measure([1000, 1000, 1000, 16_000])).rejects.toThrow(/grew 16\.0× by 262144 B/);
    await expect(measure([0.3, 0.3, 1, 7])).rejects.toThrow(/by 262144 B \(not linear\)/);
  });

  it('forgives a stall over a whole burst of runs, measuring again after a pause, but not a lasting cost', async () => {
    // The virtual clock again, with the runs at 256 KiB 20 times dearer while `stalled` says so.
    const sizes = [4 << 10, 16 << 10, 64 << 10, 256 << 10];
    let pauses: number[] = [];
    const run = (stalled: (nthAt256: number) => boolean) => {
      let now = 0;
      let at256 = 0;
      pauses = [];
      return measureGrowth(
        (s: string) => {
          const stall = s.length === 256 << 10 && stalled(at256++) ? 20 : 1;
          now += s.length * stall;
        },
        (size) => 'x'.repeat(size),
        { sizes, clock: () => now / 1e3, pause: async (ms) => void pauses.push(ms) },
      );
    };
    // The first three runs at 256 KiB (one burst) stalled: the next burst, after a pause, is clean.
    await expect(run((n) => n < 3)).resolves.toHaveLength(4);
    expect(pauses).toEqual([50]);
    // Stalled through nine runs, as CI once saw (the first burst and two more): the last burst clears it.
    await expect(run((n) => n < 9)).resolves.toHaveLength(4);
    expect(pauses).toEqual([50, 100, 150]);
    // Dearer at every run: not linear, whatever the pauses.
    await expect(run(() => true)).rejects.toThrow(/grew 20\.0× by 262144 B \(not linear\)/);
    expect(pauses).toEqual([50, 100, 150]);
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
