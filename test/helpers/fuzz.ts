// Random input for fuzz tests: a seeded generator (a failure replays from its seed), nasty strings and
// random JSON values.

/** Deterministic PRNG (mulberry32) so a failure can be replayed from its seed. */
export function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NASTY = [
  '',
  ' ',
  '\r\n',
  '\u0000',
  '\ud800',
  '💌',
  '<',
  '>',
  '@',
  '"',
  '\\',
  ',',
  'é',
  '\u202e',
  'A'.repeat(1000),
];

export function randomString(r: () => number): string {
  const n = Math.floor(r() * 8);
  let s = '';
  for (let i = 0; i < n; i++) {
    s += r() < 0.5 ? NASTY[Math.floor(r() * NASTY.length)] : String.fromCharCode(Math.floor(r() * 0xffff));
  }
  return s;
}

export function randomValue(r: () => number, depth = 0): unknown {
  const k = Math.floor(r() * (depth > 2 ? 5 : 7));
  switch (k) {
    case 0:
      return null;
    case 1:
      return r() < 0.5;
    case 2:
      return r() < 0.5 ? Math.floor(r() * 1e6) : r() * 1e308 * (r() < 0.5 ? -1 : 1);
    case 3:
    case 4:
      return randomString(r);
    case 5:
      return Array.from({ length: Math.floor(r() * 3) }, () => randomValue(r, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(r() * 4) }, () => [randomString(r), randomValue(r, depth + 1)]),
      );
  }
}
