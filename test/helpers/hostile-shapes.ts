// The linear-time property (linear-time.ts) with known-bad shapes always tried first: random shapes
// find what nobody thought of, but a run of 8 may miss the one shape that broke a parser before (a run
// of spaces between two letters froze the address parser), so those are never left to chance.
import fc from 'fast-check';
import { adversarialShape, fill, measureGrowth, type LinearOptions, type Shape } from './linear-time.js';

const shape = (prefix: string, unit: string, suffix = ''): Shape => ({ prefix, unit, suffix });

/** Text that made or could make a pattern backtrack: whitespace runs, unclosed quotes and brackets. */
export const TEXT_SHAPES: readonly Shape[] = [
  shape('a', ' ', 'b'), // the reported attack on the address parser
  shape('a', '\t', 'b <x@y.example>'),
  shape('a', '\u2028', '<x@y.example>'),
  shape('"', '\\"'), // a quoted string that never closes
  shape('', '<', '>'),
  shape('', '<<>>'),
  shape('x', '@.', 'example'),
  shape('a', '\r\n', 'b'),
  shape('550-5.1.1 ', '5.'),
  shape('a', '\t', '\rb'), // a run before a lone CR, which `.` does not match (as in the MTA-STS policy parser's)
];

/** The known shapes sent through whole requests (each costs a megabyte of JSON per size and run). */
export const REQUEST_SHAPES: readonly Shape[] = [
  shape('a', ' ', 'b'),
  shape('"', '\\"'),
  shape('', '<<>>'),
  shape('x', '@.', 'example'),
];

/** HTML that is deep, unclosed, or repeats what a converter does per element. */
export const HTML_SHAPES: readonly Shape[] = [
  shape('', '<div>'),
  shape('', '<ul><li>x'),
  shape('', '<table><tr><td>'),
  shape('', '<blockquote>x'),
  shape('<a href="', 'x'),
  shape('', '<'),
  shape('', '<p>x</p>'),
  shape('<pre>', ' \r\n'),
  shape('', '<b>x</b>'), // one word of many pieces: html-to-text's own folding was quadratic in it
  shape('', '<li>x'),
];

export interface ShapeOptions extends LinearOptions {
  /** Random shapes after the known ones; default 4. */
  numRuns?: number;
  /** The known shapes tried first; default TEXT_SHAPES. */
  examples?: readonly Shape[];
}

/** For the known shapes and `numRuns` random ones, `run(wrap(filled))` is linear up to 1 MiB. */
export async function assertLinearForShapes(
  run: (input: string) => unknown,
  wrap: (filled: string) => string = (s) => s,
  options: ShapeOptions = {},
): Promise<void> {
  const examples = options.examples ?? TEXT_SHAPES;
  await fc.assert(
    fc.asyncProperty(adversarialShape, async (s) => {
      await measureGrowth(run, (size) => wrap(fill(s, size)), options);
    }),
    {
      numRuns: examples.length + (options.numRuns ?? 4),
      examples: examples.map((s) => [s] as [Shape]),
      endOnFailure: true,
    },
  );
}

export interface BaselineOptions {
  /** Input sizes, smallest first; default 16 KiB to 1 MiB, ×4 each. */
  sizes?: readonly number[];
  /** How much dearer than the baseline of the same size the hostile input may be; default 5. */
  maxRatio?: number;
  /** Measurements of each per size, alternating (the fastest counts); default 5. */
  repeats?: number;
  /** Random shapes after the known ones; default 1. */
  numRuns?: number;
  examples?: readonly Shape[];
}

/**
 * Where a request's own machinery is not linear in our hands (JSON, the router, garbage collection of
 * megabyte strings), the cost is compared with a baseline of the same size instead of with smaller
 * inputs: `baseline(s)` carries the same text through the same machinery to a cheap end (an unknown
 * field, say). A parser that is not linear costs more than the
 * baseline by a factor that grows with the size, and fails at the first size where it passes
 * `maxRatio`.
 */
export async function assertAsCheapAsBaseline(
  hostile: (input: string) => Promise<unknown>,
  baseline: (input: string) => Promise<unknown>,
  options: BaselineOptions = {},
): Promise<void> {
  const sizes = options.sizes ?? [16 << 10, 64 << 10, 256 << 10, 1 << 20];
  const maxRatio = options.maxRatio ?? 5;
  const repeats = options.repeats ?? 5;
  const examples = options.examples ?? REQUEST_SHAPES;
  await fc.assert(
    fc.asyncProperty(adversarialShape, async (s) => {
      const steps: string[] = [];
      // Once each before measuring: the first call compiles what the rest only run.
      await pair(hostile, baseline, fill(s, sizes[0]!), 1);
      for (const size of sizes) {
        const input = fill(s, size);
        let { hostileMs, baselineMs } = await pair(hostile, baseline, input, repeats);
        // A busy machine can stall a few runs in a row: measure again, longer, before calling it a
        // fault. A parser that is not linear stays dear; a stall does not come back.
        if (ratio(hostileMs, baselineMs) > maxRatio) {
          ({ hostileMs, baselineMs } = await pair(hostile, baseline, input, repeats * 2));
        }
        steps.push(`${size} B: ${hostileMs.toFixed(2)} ms against ${baselineMs.toFixed(2)} ms`);
        const r = ratio(hostileMs, baselineMs);
        if (r > maxRatio) {
          throw new Error(`${r.toFixed(1)}× the baseline by ${size} B (not linear): ${steps.join(', ')}`);
        }
      }
    }),
    {
      numRuns: examples.length + (options.numRuns ?? 1),
      examples: examples.map((s) => [s] as [Shape]),
      endOnFailure: true,
    },
  );
}

/**
 * The fastest of `repeats` runs of each, one after the other: each run's garbage is collected during
 * the next, so runs of one kind are measured together and the fastest of them counts.
 */
async function pair(
  hostile: (input: string) => Promise<unknown>,
  baseline: (input: string) => Promise<unknown>,
  input: string,
  repeats: number,
): Promise<{ hostileMs: number; baselineMs: number }> {
  let hostileMs = Infinity;
  let baselineMs = Infinity;
  for (let i = 0; i < repeats; i++) hostileMs = Math.min(hostileMs, await timed(() => hostile(input)));
  for (let i = 0; i < repeats; i++) baselineMs = Math.min(baselineMs, await timed(() => baseline(input)));
  return { hostileMs, baselineMs };
}

// Below a few microseconds the timer's resolution dominates: count at least 20 µs.
const ratio = (hostileMs: number, baselineMs: number) =>
  Math.max(hostileMs, 0.02) / Math.max(baselineMs, 0.02);

async function timed(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}
