// What a test send keeps of its HTML (messages/test-html.ts): at most 64 KiB, cut between characters and
// before an open tag, then a note saying how much was left out.
import { describe, expect, it } from 'vitest';
import { TEST_HTML_MAX_BYTES, storedTestHtml } from '../../src/messages/test-html.js';
import { assertLinearForShapes } from '../helpers/linear-time.js';

const KIB = 1024;
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const NOTE = /<!-- txmail: [\d,]+ more bytes not stored \(test sends keep at most 64 KiB\) -->$/;

/** The kept part (before the note) of what is stored. */
const kept = (stored: string) => stored.replace(NOTE, '');

describe('the HTML a test send stores', () => {
  it('keeps HTML of up to 64 KiB whole, with no note', () => {
    for (const html of ['<p>hi</p>', 'x'.repeat(TEST_HTML_MAX_BYTES), 'é'.repeat(TEST_HTML_MAX_BYTES / 2)]) {
      expect(storedTestHtml(html)).toEqual({ html });
    }
  });

  it('keeps the first 64 KiB of a 1 MiB message and says how many bytes were left out', () => {
    const html = '<p>' + 'a'.repeat(1024 * KIB - 7) + '</p>';
    const stored = storedTestHtml(html);
    expect(stored.truncatedFrom).toBe(1024 * KIB);
    expect(bytes(kept(stored.html))).toBe(64 * KIB);
    expect(
      stored.html.endsWith(
        `<!-- txmail: ${(960 * KIB).toLocaleString('en-US')} more bytes not stored (test sends keep at most 64 KiB) -->`,
      ),
    ).toBe(true);
    expect(html.startsWith(kept(stored.html))).toBe(true);
  });

  it.each([
    ['é (2 bytes)', 'é'],
    ['€ (3 bytes)', '€'],
    ['💌 (4 bytes, a surrogate pair)', '💌'],
  ])('never cuts inside a character: %s', (_name, char) => {
    // Offsets 0..3 put every byte of the character in turn across the 64 KiB line.
    for (let offset = 0; offset < 4; offset++) {
      const html = 'x'.repeat(offset) + char.repeat((200 * KIB) / bytes(char));
      const stored = storedTestHtml(html);
      const prefix = kept(stored.html);
      expect(bytes(prefix)).toBeLessThanOrEqual(64 * KIB);
      expect(bytes(prefix)).toBeGreaterThan(64 * KIB - 4);
      // Whole characters only: the prefix round-trips through UTF-8 unchanged, and is the input's start.
      expect(Buffer.from(prefix, 'utf8').toString('utf8')).toBe(prefix);
      expect(prefix).not.toMatch(/[\ud800-\udbff]$/);
      expect(html.startsWith(prefix)).toBe(true);
      expect(stored.html).toMatch(NOTE);
    }
  });

  it('ends before a tag that the 64 KiB line would cut in two', () => {
    const html =
      'x'.repeat(64 * KIB - 10) + '<img src="https://cdn.example/a.png" alt="a">' + 'y'.repeat(KIB);
    const prefix = kept(storedTestHtml(html).html);
    expect(prefix).toBe('x'.repeat(64 * KIB - 10));
  });

  it('counts the bytes left out exactly', () => {
    const html = '€'.repeat(100 * KIB);
    const stored = storedTestHtml(html);
    const left = bytes(html) - bytes(kept(stored.html));
    expect(stored.html).toContain(`<!-- txmail: ${left.toLocaleString('en-US')} more bytes not stored`);
  });

  it('takes time linear in the HTML it is given', async () => {
    // From 32 KiB up: below a third of the limit the answer is the input itself, at no cost, and a
    // baseline of nothing made any reading of the first size that does the work look like growth.
    await assertLinearForShapes((s) => storedTestHtml(s), undefined, {
      numRuns: 4,
      sizes: [32 * KIB, 128 * KIB, 512 * KIB, 2048 * KIB],
    });
  });
});
