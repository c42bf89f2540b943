// docs/design.md is where code comments point for the decisions they rely on: every citation of a
// section must name one that exists, every pointer from it into ARCHITECTURE.md must name a heading
// there, and the names it lists (error codes, webhook types, bounce categories) must be the code's.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOUNCE_CATEGORIES } from '../src/bounce/categories.js';
import { WEBHOOK_EVENT_TYPES } from '../src/db/schema.js';
import { ERROR_CODES } from '../src/errors.js';

const root = join(import.meta.dirname, '..');
const design = readFileSync(join(root, 'docs', 'design.md'), 'utf8');

/** Section number → heading text, from `## N. Title`. */
const sections = new Map([...design.matchAll(/^## (\d+)\. (.+)$/gm)].map((m) => [Number(m[1]), m[2]!]));

/** The text of one section, up to the next `## ` heading. */
function section(n: number): string {
  const start = design.indexOf(`\n## ${n}. `);
  const end = design.indexOf('\n## ', start + 1);
  return design.slice(start, end === -1 ? undefined : end);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

const TEXT_FILE = /\.(ts|tsx|js|mjs|cjs|md|html|css|json)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', '.git', 'screenshots', 'fixtures']);

/** Every text file of the source tree, the docs and the top-level documents. */
function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      if (SKIP_DIRS.has(name)) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (TEXT_FILE.test(name)) files.push(path);
    }
  };
  for (const dir of ['src', 'test', 'e2e', 'web', 'bench', 'docs']) walk(join(root, dir));
  for (const name of ['README.md', 'ARCHITECTURE.md', 'SECURITY.md']) files.push(join(root, name));
  return files;
}

/** `docs/design.md §3, §6` → [3, 6], with the line each was cited on. */
function citations(text: string): { section: number; line: number }[] {
  const found: { section: number; line: number }[] = [];
  for (const m of text.matchAll(/docs\/design\.md((?:,?\s*(?:and\s+)?§\d+)+)/g)) {
    const line = text.slice(0, m.index).split('\n').length;
    for (const n of m[1]!.matchAll(/§(\d+)/g)) found.push({ section: Number(n[1]), line });
  }
  return found;
}

describe('docs/design.md', () => {
  it('numbers its sections 1, 2, 3… in order', () => {
    expect(sections.size).toBeGreaterThan(10);
    expect([...sections.keys()]).toEqual([...sections.keys()].map((_, i) => i + 1));
  });

  it('is cited only by sections that exist, and the old outside name is cited nowhere', () => {
    // Spelled in two parts so that this file does not cite it itself.
    const outsideName = ['DESIGN', 'md'].join('.');
    const missing: string[] = [];
    const outside: string[] = [];
    let cited = 0;
    for (const file of sourceFiles()) {
      const text = readFileSync(file, 'utf8');
      const name = relative(root, file);
      for (const c of citations(text)) {
        cited++;
        if (!sections.has(c.section)) missing.push(`${name}:${c.line} cites §${c.section}`);
      }
      text.split('\n').forEach((line, i) => {
        if (line.includes(outsideName)) outside.push(`${name}:${i + 1}`);
      });
    }
    expect(missing).toEqual([]);
    expect(outside).toEqual([]);
    // The walk found the comments that cite it (a walk that finds nothing proves nothing).
    expect(cited).toBeGreaterThan(15);
  });

  it('is linked to the right anchors from the other documents', () => {
    const anchors = new Set([...sections.entries()].map(([n, title]) => anchor(`${n}. ${title}`)));
    const broken: string[] = [];
    for (const file of sourceFiles().filter((f) => f.endsWith('.md'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\(((?:docs\/)?design\.md)#([^)\s]+)\)/g)) {
        if (!anchors.has(m[2]!)) broken.push(`${relative(root, file)}: ${m[1]}#${m[2]}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('points into ARCHITECTURE.md only at headings that exist', () => {
    const architecture = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');
    const headings = new Set([...architecture.matchAll(/^#+ (.+)$/gm)].map((m) => m[1]!.trim()));
    // `ARCHITECTURE.md, "A" and "B"` or `ARCHITECTURE.md, "A", "B"`: every quoted name after the pointer.
    const named = [...design.matchAll(/ARCHITECTURE\.md, ((?:"[^"]+"(?:,?\s+(?:and\s+)?)?)+)/g)].flatMap(
      (m) => [...m[1]!.matchAll(/"([^"]+)"/g)].map((q) => q[1]!.replace(/\s+/g, ' ')),
    );
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((h) => !headings.has(h))).toEqual([]);
  });

  it('lists every error code under its status, and no other (§3)', () => {
    const listed = new Map<string, number>();
    for (const row of section(3).matchAll(/^\| (\d{3}) \| (.+) \|$/gm)) {
      for (const code of row[2]!.matchAll(/`([a-z_]+)`/g)) listed.set(code[1]!, Number(row[1]));
    }
    expect(Object.fromEntries(listed)).toEqual(
      Object.fromEntries(Object.entries(ERROR_CODES).map(([code, { status }]) => [code, status])),
    );
  });

  it('names every webhook event type (§8) and every bounce category (§4)', () => {
    for (const type of WEBHOOK_EVENT_TYPES) expect(section(8)).toContain(`\`${type}\``);
    for (const category of BOUNCE_CATEGORIES) expect(section(4)).toContain(`\`${category}\``);
  });
});
