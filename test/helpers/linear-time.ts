// Proof that a parser fed from outside runs in time linear in its input (issue: hostile input).
//
// No wall-clock constant is asserted: each check measures the same function on growing inputs of the
// same shape (×4 each step, up to 1 MiB) and compares its cost per byte with the cheapest cost per byte
// it showed on the smaller inputs of that run. A linear parser keeps that ratio near 1; a quadratic one
// multiplies it by 4 at every step, so it fails at a small size, long before it could hang the suite.
//
// One step up is allowed once, from 16 KiB (STEP_FROM), if the cost stays flat after it. V8 allocates an object of
// more than 128 KiB (a string of 64 Ki two-byte or 128 Ki one-byte characters) in its large-object
// space: a linear scanner that copies its input costs 4 to 7 times more per byte from the size where
// its copies cross that line, and the same from there on (measured: parseFieldGroups on a run of spaces,
// 0.7 ns a byte at 64 KiB, 3.8 at 256 KiB and 3.7 at 1 MiB). So a size from STEP_FROM dearer than the limit
// (but at most STEP_ALLOWANCE times it) becomes the new baseline, and every larger size must stay
// within FLAT_AFTER_STEP of it: a quadratic cost grows 4 times again at the next size and fails there.
// Two leniencies, each for a cost seen to be linear and judged otherwise: a size that looks too dear is
// measured again after pauses (a stall), and a function that returns at once (every smaller size at
// the timer's floor) is not judged where a run takes under 2 ms (its input's copy into fresh memory).
// The shapes come from fast-check: runs of one character, spaces, bare CR and LF, U+2028, nested
// brackets and quotes, and whatever mix of them the property generator finds.
import fc from 'fast-check';

/** Pieces that make regular expressions and hand-written scanners backtrack or rescan. */
export const NASTY_PIECES = [
  ' ',
  '\t',
  '\r',
  '\n',
  '\r\n',
  '\r\r\n',
  '\n\n',
  ' \r\n ',
  '\u2028',
  '\u2029',
  '\u0085',
  '\0',
  '<',
  '>',
  '<<',
  '<>',
  '"',
  '\\"',
  '\\',
  '(',
  ')',
  '[',
  ']',
  '{',
  '@',
  '@@',
  '.',
  '..',
  ',',
  ';',
  ':',
  '=',
  '-',
  '--',
  '+',
  'a',
  'A',
  '5',
  '550 ',
  '5.1.1 ',
  '4.',
  'x@y',
  'b+',
  'é',
  '💌',
  'Content-Type: ',
  'rfc822;',
  ': ',
] as const;

/** One piece: a nasty one, a short random string, or a few of either glued together. */
export const adversarialPiece: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_PIECES) },
  { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 6, unit: 'grapheme-ascii' }) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.constantFrom(...NASTY_PIECES), { minLength: 2, maxLength: 4 })
      .map((pieces) => pieces.join('')),
  },
  { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 4, unit: 'binary' }) },
);

/**
 * A shape of adversarial input: something before, one piece repeated, something after. With `then`,
 * two runs share the size: a cost of one run's length times the other's (n quote markers carried onto
 * each of n words' lines) grows with neither run alone.
 */
export interface Shape {
  prefix: string;
  unit: string;
  /** A second piece, repeated after the first run, the two runs of about the same length. */
  then?: string;
  suffix: string;
}

export const adversarialShape: fc.Arbitrary<Shape> = fc.record(
  {
    prefix: fc.oneof(fc.constant(''), adversarialPiece),
    unit: adversarialPiece,
    then: fc.oneof(
      { weight: 3, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: adversarialPiece },
    ),
    suffix: fc.oneof(fc.constant(''), adversarialPiece),
  },
  { requiredKeys: ['prefix', 'unit', 'suffix'] },
);

/** `piece` repeated to about `length` UTF-16 code units, at least once. */
const run = (piece: string, length: number) => piece.repeat(Math.max(1, Math.ceil(length / piece.length)));

/** The shape filled to about `bytes` UTF-16 code units. */
export function fill(shape: Shape, bytes: number): string {
  const room = bytes - shape.prefix.length - shape.suffix.length;
  const runs =
    shape.then === undefined ? run(shape.unit, room) : run(shape.unit, room / 2) + run(shape.then, room / 2);
  return shape.prefix + runs + shape.suffix;
}

export interface LinearOptions {
  /** Input sizes to try, smallest first; default 4 KiB to 1 MiB, ×4 each. */
  sizes?: readonly number[];
  /** How much dearer per byte than the best smaller input a size may be; default 5 (quadratic: ×4 per step). */
  maxGrowth?: number;
  /** Measurements per size (the fastest counts: noise only ever adds time); default 3. */
  repeats?: number;
  /**
   * What a measurement reads, in ms; default `processCpuMs`, the CPU time of this process (its threads
   * included), which leaves out the time other processes take the CPU away: on a busy machine that
   * dwarfs a parse of a few milliseconds and made a linear parser look quadratic. Pass the wall clock
   * (`() => performance.now()`) for work done in another process.
   */
  clock?: () => number;
  /** Waits `ms` before a size is measured again (default a timer; tests pass their own to see it). */
  pause?: (ms: number) => Promise<void>;
}

/** CPU time this process (all its threads) has used, in ms. */
export function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export const DEFAULT_SIZES = [4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20] as const;

/** Timer resolution: a run is counted as at least this many ms. */
const FLOOR_MS = 0.02;
/**
 * A function whose runs at every smaller size cost no more than FLOOR_MS (it returns at once) is not
 * judged at a size it runs in less than this: what it costs there is the copy of its input into one
 * string, which from 256 KiB lands in fresh memory page by page, some fifteen times dearer per byte
 * than the floor but linear (CI once failed on it). A larger size that costs more is judged.
 */
const UNJUDGED_BELOW_MS = 2;

/** Measurements again, after pauses of 50, 100 and 150 ms, of a size that looks dearer than the limit. */
const RETRIES = 3;
const RETRY_PAUSE_MS = 50;

/**
 * The least size where the one step up is allowed: below it nothing a parser makes of its input is a
 * large object. A copy of the input becomes one from 64 KiB (two-byte) or 128 KiB; an array with an
 * element a byte (`split` on a run of line ends) from 16 KiB, its 16 Ki pointers filling 128 KiB: the
 * policy parser cost 60 ns a byte up to 12 Ki lines and 245–330 from 16 Ki on, linear on either side
 * (the serial lane failed on it once, 5.1× at 16 KiB).
 */
const STEP_FROM = 16 << 10;
/** How much dearer than the limit the one step up may be (a step beyond it fails at once). */
const STEP_ALLOWANCE = 3;
/** After the step, how much dearer per byte than the step's size a larger size may be. */
const FLAT_AFTER_STEP = 1.8;

export interface Growth {
  size: number;
  ms: number;
  /** Cost per byte over the best cost per byte of the smaller sizes. */
  ratio: number;
}

/**
 * Runs `run` on `build(size)` for each size and returns the measurements; throws (naming the size and
 * the ratio) as soon as the cost per byte grows more than `maxGrowth` times the best seen before.
 */
export async function measureGrowth<T>(
  run: (input: T) => unknown,
  build: (size: number) => T,
  options: LinearOptions = {},
): Promise<Growth[]> {
  const sizes = options.sizes ?? DEFAULT_SIZES;
  const maxGrowth = options.maxGrowth ?? 5;
  const repeats = options.repeats ?? 3;
  const clock = options.clock ?? processCpuMs;
  const pauseFor = options.pause ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const growth: Growth[] = [];
  let best = Infinity;
  /** The step taken, if any: from then on the sizes are held to FLAT_AFTER_STEP of it. */
  let step: Growth | undefined;
  // Warm up first: the first runs of a function are interpreted and then compiled, and a baseline that
  // slow would let a quadratic cost hide under it at the next sizes.
  const warm = build(sizes[0]!);
  for (let i = 0; i < 3; i++) await run(warm);
  for (const size of sizes) {
    const input = build(size);
    const fastest = async (times: number, ms: number) => {
      for (let i = 0; i < times; i++) {
        const start = clock();
        await run(input);
        ms = Math.min(ms, clock() - start);
      }
      return ms;
    };
    let ms = await fastest(repeats, Infinity);
    // Below a few microseconds the timer's resolution dominates: count at least 20 µs.
    const ratioOf = (m: number) => (best === Infinity ? 1 : Math.max(m, FLOOR_MS) / size / best);
    const unjudged = (m: number) => m < UNJUDGED_BELOW_MS && growth.every((g) => g.ms <= FLOOR_MS);
    const limit = step === undefined ? maxGrowth : FLAT_AFTER_STEP;
    // A collection of the previous size's garbage, a busy machine, or the host of this virtual machine
    // taking its CPU away (which, depending on how the kernel accounts for stolen time, may still count
    // as this process's) can slow every run of a burst: measure again after growing pauses before
    // calling it a fault. A cost that is not linear stays; a stall does not (CI once saw 1.25 ms at
    // 256 KiB where a quiet run takes 0.19 ms, in all nine runs back to back).
    for (let pause = 1; pause <= RETRIES && ratioOf(ms) > limit && !unjudged(ms); pause++) {
      await pauseFor(RETRY_PAUSE_MS * pause);
      ms = await fastest(repeats, ms);
    }
    const perByte = Math.max(ms, FLOOR_MS) / size;
    const ratio = ratioOf(ms);
    const judged = !unjudged(ms);
    growth.push({ size, ms, ratio });
    if (ratio > limit && judged) {
      // The step at this size (not the last: nothing after it would show the cost flat), or at the
      // size before, which stayed under the limit while this one, as dear per byte, passes it.
      const previous = growth.at(-2);
      // A step is one jump: a cost that grew at the size before and grows again about as a quadratic
      // does (×4 a step) is no step (a quadratic parse read 3.6× and then 14.8×, and its next size
      // would have taken minutes). Noise at the size before (2.5×, then a step to 7×) is still one.
      const stillGrowing =
        previous !== undefined && previous.ratio > FLAT_AFTER_STEP && ratio / previous.ratio >= 3;
      const stepHere =
        step === undefined &&
        size >= STEP_FROM &&
        size !== sizes.at(-1) &&
        ratio <= maxGrowth * STEP_ALLOWANCE &&
        !stillGrowing;
      const stepBefore =
        step === undefined &&
        previous !== undefined &&
        previous.size >= STEP_FROM &&
        perByte / (Math.max(previous.ms, FLOOR_MS) / previous.size) <= FLAT_AFTER_STEP;
      if (stepBefore) {
        step = previous;
        best = Math.min(perByte, Math.max(previous.ms, FLOOR_MS) / previous.size);
        continue;
      }
      if (!stepHere) {
        const steps = growth.map((g) => `${g.size} B: ${g.ms.toFixed(2)} ms`).join(', ');
        const after = step ? `, after a step at ${step.size} B` : '';
        throw new Error(
          `cost per byte grew ${ratio.toFixed(1)}× by ${size} B (not linear${after}): ${steps}`,
        );
      }
      // The one step allowed: this size is the baseline from now on.
      step = growth.at(-1)!;
      best = perByte;
      continue;
    }
    best = Math.min(best, perByte);
  }
  return growth;
}

export type ShapeRunOptions = LinearOptions & { numRuns?: number; seed?: number };

/**
 * The property: for every shape fast-check generates, `run` is linear on the shape filled up to 1 MiB.
 * `wrap` places the filled text into the format under test (a header, a report field, a JSON body) or
 * turns it into the input `run` takes (a Buffer): it runs outside the measurement, so what is timed is
 * `run` alone, not the making of its input.
 */
export async function assertLinearForShapes(
  run: (input: string) => unknown,
  wrap?: (filled: string) => string,
  options?: ShapeRunOptions,
): Promise<void>;
export async function assertLinearForShapes<T>(
  run: (input: T) => unknown,
  wrap: (filled: string) => T,
  options?: ShapeRunOptions,
): Promise<void>;
export async function assertLinearForShapes<T>(
  run: (input: T) => unknown,
  // Only the string overload may leave it out: the text is then the input.
  wrap: (filled: string) => T = (s) => s as T,
  options: ShapeRunOptions = {},
): Promise<void> {
  await fc.assert(
    fc.asyncProperty(adversarialShape, async (shape) => {
      await measureGrowth(run, (size) => wrap(fill(shape, size)), options);
    }),
    { numRuns: options.numRuns ?? 12, seed: options.seed, endOnFailure: true },
  );
}
