// docs/API.md lists every bounce category, and only those, with the meaning the code gives it
// (CATEGORY_MEANING, which the dashboard shows), whether it suppresses the address as suppresses()
// decides, and an example of what gives it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOUNCE_CATEGORIES, CATEGORY_MEANING, suppresses } from '../../src/bounce/categories.js';

const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'API.md'), 'utf8');
const section = doc.slice(doc.indexOf('\n## Bounce categories\n'), doc.indexOf('\n## Webhooks\n'));
const rows = new Map(
  [...section.matchAll(/^\| `([a-z_]+)` \| (.+?) \| (.+?) \| (.+) \|$/gm)].map((m) => [
    m[1]!,
    { meaning: m[2]!, suppresses: m[3]!, example: m[4]! },
  ]),
);

describe('the bounce categories in docs/API.md', () => {
  it('lists every category of the code, and no other, in its order', () => {
    expect([...rows.keys()]).toEqual([...BOUNCE_CATEGORIES]);
  });

  it.each(BOUNCE_CATEGORIES)('gives %s its meaning, its suppression rule and an example', (c) => {
    const row = rows.get(c)!;
    expect(row.meaning).toBe(CATEGORY_MEANING[c]);
    const rule =
      suppresses(c, 'permanent', false) && suppresses(c, 'transient', false)
        ? 'yes'
        : suppresses(c, 'permanent', false)
          ? 'yes, when permanent'
          : suppresses(c, 'permanent', true)
            ? 'when it happens again'
            : 'no';
    expect(row.suppresses).toBe(rule);
    expect(row.example).toMatch(/`[^`]{10,}`/);
  });
});
