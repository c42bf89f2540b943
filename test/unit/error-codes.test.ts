import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, rateLimited } from '../../src/errors.js';

describe('error code registry', () => {
  const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'API.md'), 'utf8');

  it.each(Object.entries(ERROR_CODES))('documents %s with its status in docs/API.md', (code, { status }) => {
    expect(doc).toMatch(new RegExp(`\\| ${status} \\| \`${code}\` \\|`));
  });

  it('documents no code that does not exist', () => {
    const documented = [...doc.matchAll(/^\| \d{3} \| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });
});

describe('the rate-limit answer', () => {
  it('is rate_limit_exceeded with Retry-After in whole seconds, at least one', () => {
    const e = rateLimited('too many wrong codes', 61.2);
    expect([e.status, e.code, e.message, e.headers]).toEqual([
      429,
      'rate_limit_exceeded',
      'too many wrong codes',
      { 'Retry-After': '62' },
    ]);
    expect(rateLimited('slow down', 0).headers).toEqual({ 'Retry-After': '1' });
  });
});
