import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { badTextField } from '../../src/http/no-nul.js';

describe('badTextField', () => {
  it('names the first string or key holding U+0000, by its path', () => {
    expect(badTextField({ a: 'x', b: ['ok', 'n\u0000'] })).toEqual({ field: 'b.1', problem: 'nul' });
    expect(badTextField({ outer: { ['k\u0000']: 1 } })).toEqual({ field: 'outer.k\u0000', problem: 'nul' });
    expect(badTextField('\u0000')).toEqual({ field: '', problem: 'nul' });
    expect(badTextField({ name: 'x\uD800y' })).toEqual({ field: 'name', problem: 'surrogate' });
    expect(badTextField({ name: 'x\uDC00' })).toEqual({ field: 'name', problem: 'surrogate' });
    expect(badTextField({ name: 'emoji \uD83D\uDE00 ok' })).toBeUndefined();
    expect(badTextField({ a: 1, b: null, c: true, d: [] })).toBeUndefined();
  });

  it('walks values nested deeper than the call stack would go', () => {
    let deep: unknown = 'a\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(badTextField(deep)?.field).toBe(Array.from({ length: 100_000 }, () => '0').join('.'));
    let clean: unknown = 'a';
    for (let i = 0; i < 100_000; i++) clean = { k: clean };
    expect(badTextField(clean)).toBeUndefined();
  });

  it('finds nothing in any JSON value without the character, and finds one put anywhere', () => {
    const clean = fc
      .jsonValue()
      .map((v) => JSON.parse(JSON.stringify(v).replaceAll('\\u0000', '')) as unknown);
    fc.assert(
      fc.property(clean, (v) => {
        expect(badTextField(v)).toBeUndefined();
        // The same value under a key, beside a string that holds one.
        expect(badTextField({ v, w: 'a\u0000' })).toEqual({ field: 'w', problem: 'nul' });
      }),
    );
  });
});
