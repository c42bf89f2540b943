// The dashboard shows text someone chose with its direction controls written out
// (web/src/components/visible-controls.ts): "a\u202Eevil.com" showed as "amoc.live".
import { describe, expect, it } from 'vitest';
import { visibleControls } from '../../web/src/components/visible-controls.js';

describe('direction controls in shown text', () => {
  it('writes each as its code point, and leaves everything else alone', () => {
    expect(visibleControls('a\u202eevil.com')).toBe('a[U+202E]evil.com');
    expect(visibleControls('\u2066x\u2069 \u200f\u061c')).toBe('[U+2066]x[U+2069] [U+200F][U+061C]');
    for (const plain of ['Receipt #1001', 'مرحبا', 'שלום', 'zero\u200bwidth', '😀 key', ''])
      expect(visibleControls(plain)).toBe(plain);
  });
});
