// No header line of an outgoing message is longer than RFC 5322 §2.1.1 allows (998 octets), whatever
// the subject and display names the API accepted, and the subject a reader decodes is exactly the one
// given. A subject word too long to fold is written as encoded-words (compose.ts foldableSubject).
import fc from 'fast-check';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { composeMessage, foldableSubject, type OutgoingMessage } from '../../src/delivery/compose.js';

const base: OutgoingMessage = {
  id: '0190a0b0-0000-7000-8000-000000000001',
  fromName: 'Acme',
  fromEmail: 'noreply@acme.example',
  toName: '',
  toEmail: 'jane@recipient.example',
  subject: 'Your code',
  html: '<p>Code</p>',
  createdAt: Date.UTC(2026, 10, 24, 12, 0, 0),
};

async function headerLines(m: OutgoingMessage): Promise<{ lines: string[]; raw: Buffer }> {
  const raw = await composeMessage(m, 'mta.txmail.test');
  const text = raw.toString('latin1');
  return { lines: text.slice(0, text.indexOf('\r\n\r\n')).split('\r\n'), raw };
}

const octets = (line: string) => Buffer.byteLength(line, 'latin1');

describe('header lines', () => {
  it('folds a 998-character subject without a space into lines of at most 78 octets, decoded unchanged', async () => {
    for (const subject of [
      'a'.repeat(998),
      'é'.repeat(998),
      `Code: ${'9'.repeat(990)}`,
      '=?x?='.repeat(199),
    ]) {
      const { lines, raw } = await headerLines({ ...base, subject });
      const subjectLines = lines.slice(lines.findIndex((l) => l.startsWith('Subject:')));
      const end = subjectLines.findIndex((l, i) => i > 0 && !/^[ \t]/.test(l));
      for (const l of subjectLines.slice(0, end)) expect(octets(l), l.slice(0, 40)).toBeLessThanOrEqual(78);
      expect((await simpleParser(raw)).subject).toBe(subject);
    }
  });

  it.each(['=?utf-8?b?QmNjOiBldmlsQHgub3Jn?=', 'Hello =?UTF-8?Q?=E2=9C=93_paid?= friend'])(
    'encodes a subject that a reader would decode as an encoded-word, so %s shows as typed',
    async (subject) => {
      expect(foldableSubject(subject)).toMatch(/^=\?UTF-8\?Q\?/);
      const { raw } = await headerLines({ ...base, subject });
      expect((await simpleParser(raw)).subject).toBe(subject);
    },
  );

  it('leaves a subject that folds as it is', () => {
    expect(foldableSubject('Your password reset link')).toBe('Your password reset link');
    expect(foldableSubject(`${'w'.repeat(66)} end`)).toBe(`${'w'.repeat(66)} end`);
    expect(foldableSubject('w'.repeat(67))).toMatch(/^=\?UTF-8\?Q\?/);
  });

  it('never writes a header line over 998 octets, whatever subject and names the API accepts', async () => {
    const piece = fc.oneof(
      fc.constantFrom(' ', '"', '\\', '=?', '?=', 'é', '😀', '  '),
      fc.string({ minLength: 1, maxLength: 80 }),
      fc.constantFrom('x'.repeat(300), 'ü'.repeat(200)),
    );
    const text = (max: number) =>
      fc
        .array(piece, { maxLength: 30 })
        // What a subject or name can be: no line breaks, tabs or NUL; not blank at either end.
        .map((p) =>
          p
            .join('')
            .replace(/[\r\n\0\t]/g, ' ')
            .slice(0, max)
            .trim(),
        )
        .filter((s) => s !== '');
    await fc.assert(
      fc.asyncProperty(text(998), text(256), text(256), async (subject, fromName, toName) => {
        const { lines, raw } = await headerLines({ ...base, subject, fromName, toName });
        for (const l of lines) expect(octets(l)).toBeLessThanOrEqual(998);
        expect((await simpleParser(raw)).subject).toBe(subject);
      }),
      { numRuns: 200 },
    );
  });
});
