// ARCHITECTURE.md: `db/` is a leaf. Its modules import only each other, packages, and the few modules
// outside it listed here, each of which imports no further than db/ and this list (checked through
// every import, `import type` included), so no change reaches db/ from the folders that use it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Modules outside db/ that db/ may use: plain data, pure functions, types. */
const LEAVES = [
  'accounts/plans.ts', // the plans' limits (the queue's per-plan claim)
  'blocklists/query.ts', // a listing's type
  'blocklists/zones.ts',
  'bounce/categories.ts', // the bounce categories (a leaf the dashboard shares)
  'clock.ts',
  'delivery/tls-policy.ts', // a TLS requirement's type
  'dns/answers.ts', // a DNS failure's type
  'ids.ts', // the ids' form (the orphan sweep's UUIDv7 bound)
  'inbound/message-memory.ts', // a large inbound message's parts (their size, what writing one holds)
  'mta-sts/policy.ts', // the policy mode's type
  'number-text.ts', // numbers in digits (the thresholds' and zones' texts for txmail config)
  'rate-limit-gcra.ts', // the rate limits' arithmetic
  'reputation/counts.ts', // what a delivery adds to the reputation counts
  'reputation/judge.ts',
  'reputation/thresholds.ts',
  'split-text.ts', // text cut in well-formed pieces (a large HTML's parts)
  'tls-reports/counts.ts',
  'trim-wsp.ts', // white space trimmed in linear time (the policy parser's)
  'wake-signals.ts',
];

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

/** The modules of src/ a file imports (static, dynamic, type-only, re-exports), as paths under src/. */
function importsOf(path: string): string[] {
  const text = readFileSync(join(SRC, path), 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.[^'"]+)['"]/g)].map(
    (m) => m[1]!,
  );
  return specifiers.map((s) => relative(SRC, resolve(SRC, dirname(path), s.replace(/\.js$/, '.ts'))));
}

/** Every module outside db/ that db/ reaches, with the db/ or leaf module that imports it. */
function reachedFromDb(): Map<string, string> {
  const reached = new Map<string, string>();
  const queue = sourceFiles(join(SRC, 'db')).map((f) => relative(SRC, f));
  const seen = new Set(queue);
  while (queue.length > 0) {
    const path = queue.shift()!;
    for (const target of importsOf(path)) {
      if (seen.has(target)) continue;
      seen.add(target);
      queue.push(target);
      if (!target.startsWith('db/')) reached.set(target, path);
    }
  }
  return reached;
}

describe('db/ as a leaf', () => {
  it('reaches outside db/ only the modules listed as leaves', () => {
    const reached = reachedFromDb();
    const unlisted = [...reached].filter(([target]) => !LEAVES.includes(target));
    expect(unlisted.map(([target, by]) => `${by} → ${target}`)).toEqual([]);
  });

  it('sees the imports it checks', () => {
    // The scan itself: a db/ module's import of a leaf, and a leaf's own import, are found.
    expect(importsOf('db/postgres/rate-limit-store.ts')).toContain('rate-limit-gcra.ts');
    expect(reachedFromDb().get('bounce/categories.ts')).toBe('reputation/counts.ts');
    expect(importsOf('accounts/quota-warning.ts')).toContain('db/accept-item.ts');
  });
});
