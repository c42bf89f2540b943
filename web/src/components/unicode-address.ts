// An address or domain as people write it: the labels of an internationalised domain that txmail
// stores in ASCII (`xn--bcher-kva`) shown in Unicode (`bücher`), the rest as it is. For display only;
// the page keeps the ASCII form beside it (a title) for whoever must type or compare it.
import { toUnicode } from 'punycode/punycode.es6.js';

/** `text` (an address, "Name <address>", or a domain) with its ASCII-encoded labels in Unicode. */
export function unicodeText(text: string): string {
  if (!text.includes('xn--')) return text;
  // Only the labels that are such encodings: a name or a local part is left alone.
  return text.replace(/\bxn--[a-z0-9-]+/gi, (label) => {
    try {
      return toUnicode(label.toLowerCase());
    } catch {
      return label;
    }
  });
}
