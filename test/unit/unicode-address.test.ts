import { describe, expect, it } from 'vitest';
import { unicodeText } from '../../web/src/components/unicode-address.js';

describe('an address as people write it', () => {
  it("shows an internationalised domain's labels in Unicode, and leaves the rest as it is", () => {
    expect(unicodeText('juergen@xn--bcher-kva.example')).toBe('juergen@bücher.example');
    expect(unicodeText('Bücher GmbH <info@xn--bcher-kva.example>')).toBe('Bücher GmbH <info@bücher.example>');
    expect(unicodeText('eleni@xn--mxa0b.example')).toBe('eleni@ασ.example');
    expect(unicodeText('jane@dest.example')).toBe('jane@dest.example');
    // Not an encoding after all: shown as stored.
    expect(unicodeText('x@xn--zz.example')).toBe('x@xn--zz.example');
  });
});
