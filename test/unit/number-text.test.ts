// Numbers written for the configuration's parsers (src/number-text.ts): digits only, never an
// exponent, and read back exactly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactText, numberText } from '../../src/number-text.js';

describe('numbers as text', () => {
  it('writes any number in digits that read back as it', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const text = numberText(n);
        expect(text).toMatch(/^-?\d+(\.\d+)?$/);
        expect(Number(text)).toBe(n + 0); // -0 is written 0
      }),
    );
    expect(numberText(1e21)).toBe('1000000000000000000000');
    expect(numberText(1e-7)).toBe('0.0000001');
    expect(numberText(1.5e-7)).toBe('0.00000015');
  });

  it('writes a scaled rate in the fewest digits that give it back', () => {
    expect(exactText(0.001, 100)).toBe('0.1');
    // As the parser makes it: 0.007 / 100 (the literal 0.00007 is another double).
    expect(exactText(0.007 / 100, 100)).toBe('0.007');
    // Any rate the parser can make (a percentage written in decimals, divided by 100).
    fc.assert(
      fc.property(fc.double({ min: 1e-10, max: 100, noNaN: true }), (percent) => {
        const rate = Number(numberText(percent)) / 100;
        const text = exactText(rate, 100);
        expect(text).toMatch(/^\d+(\.\d+)?$/);
        expect(Number(text) / 100).toBe(rate);
      }),
    );
  });
});
