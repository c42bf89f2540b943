import { describe, expect, it } from 'vitest';
import { parseAddress } from '../src/messages/address.js';

describe('parseAddress', () => {
  it.each([
    ['jane@example.com', '', 'jane@example.com'],
    ['  jane@example.com  ', '', 'jane@example.com'],
    ['Jane Doe <jane@example.com>', 'Jane Doe', 'jane@example.com'],
    ['"Doe, Jane" <jane@example.com>', 'Doe, Jane', 'jane@example.com'],
    ['"Say \\"hi\\"" <jane@example.com>', 'Say "hi"', 'jane@example.com'],
    ['<jane@example.com>', '', 'jane@example.com'],
    ['Jane@EXAMPLE.com', '', 'Jane@example.com'],
    ['first.last+tag@sub.example.co.uk', '', 'first.last+tag@sub.example.co.uk'],
    ["o'brien@example.ie", '', "o'brien@example.ie"],
    ['jose@bücher.de', '', 'jose@xn--bcher-kva.de'],
    ['Zoë <zoe@例え.jp>', 'Zoë', 'zoe@xn--r8jz45g.jp'],
    ['user@xn--bcher-kva.de', '', 'user@xn--bcher-kva.de'],
    ['user@example.com.', '', 'user@example.com'],
  ])('accepts %j', (input, name, email) => {
    const r = parseAddress(input);
    expect(r).toEqual({ ok: true, address: { name, email, domain: email.split('@')[1] } });
  });

  it.each([
    ['', 'must not be empty'],
    ['jane', 'is not an email address: "jane"'],
    ['@example.com', 'is not an email address: "@example.com"'],
    ['jane@', 'is not an email address: "jane@"'],
    ['jane@localhost', 'has an invalid domain: "localhost"'],
    ['jane@[127.0.0.1]', 'has an invalid domain: "[127.0.0.1]"'],
    ['jane@exa_mple.com', 'has an invalid domain: "exa_mple.com"'],
    ['jane@-example.com', 'has an invalid domain: "-example.com"'],
    ['jane@example.123', 'has an invalid domain: "example.123"'],
    ['jane..doe@example.com', 'has an invalid local part: "jane..doe"'],
    ['.jane@example.com', 'has an invalid local part: ".jane"'],
    ['"jane doe"@example.com', 'must be exactly one email address (one recipient per call)'],
    ['a@example.com, b@example.com', 'must be exactly one email address (one recipient per call)'],
    ['a@example.com;b@example.com', 'must be exactly one email address (one recipient per call)'],
    ['Jane <jane@example.com', 'is not an email address (expected addr@domain or Name <addr@domain>)'],
    ['jane@example.com\r\nBcc: x@evil.com', 'must not contain line breaks or NUL characters'],
    ['Jane\n <jane@example.com>', 'must not contain line breaks or NUL characters'],
    ['jane@exa\u0000mple.com', 'must not contain line breaks or NUL characters'],
    ['x'.repeat(65) + '@example.com', `has an invalid local part: "${'x'.repeat(65)}"`],
    ['a@' + 'b'.repeat(64) + '.com', `has an invalid domain: "${'b'.repeat(64)}.com"`],
    [`${'n'.repeat(257)} <a@example.com>`, 'has a display name over 256 characters'],
  ])('refuses %j', (input, reason) => {
    expect(parseAddress(input)).toEqual({ ok: false, reason });
  });
});
