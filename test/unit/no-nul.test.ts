import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nulField } from '../../src/http/no-nul.js';

describe('nulField', () => {
  it('names the first string or key holding U+0000, by its path', () => {
    expect(nulField({ a: 'x', b: ['ok', 'n\u0000'] })).toBe('b.1');
    expect(nulField({ outer: { ['k\u0000']: 1 } })).toBe('outer.k\u0000');
    expect(nulField('\u0000')).toBe('');
    expect(nulField({ a: 1, b: null, c: true, d: [] })).toBeUndefined();
  });

  it('walks values nested deeper than the call stack would go', () => {
    let deep: unknown = 'a\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nulField(deep)).toBe(Array.from({ length: 100_000 }, () => '0').join('.'));
    let clean: unknown = 'a';
    for (let i = 0; i < 100_000; i++) clean = { k: clean };
    expect(nulField(clean)).toBeUndefined();
  });

  it('finds nothing in any JSON value without the character, and finds one put anywhere', () => {
    const clean = fc
      .jsonValue()
      .map((v) => JSON.parse(JSON.stringify(v).replaceAll('\\u0000', '')) as unknown);
    fc.assert(
      fc.property(clean, (v) => {
        expect(nulField(v)).toBeUndefined();
        // The same value under a key, beside a string that holds one.
        expect(nulField({ v, w: 'a\u0000' })).toBe('w');
      }),
    );
  });
});
