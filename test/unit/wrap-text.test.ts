// The text alternative's folding: one pass, words never broken, and for ordinary messages exactly
// what html-to-text's own folding (quadratic in a word's pieces, so no longer used) produced.
import fc from 'fast-check';
import { compile } from 'html-to-text';
import { describe, expect, it } from 'vitest';
import { MAX_TEXT_DEPTH, plainText } from '../../src/delivery/compose.js';
import { wrapText } from '../../src/delivery/wrap-text.js';

describe('wrapText', () => {
  it.each([
    ['a short line', 'Hi there', 'Hi there'],
    ['a paragraph', 'aaa bbb ccc ddd', 'aaa bbb\nccc ddd'],
    [
      'a word longer than the line, whole',
      'see https://acme.example/very/long/path ok',
      'see\nhttps://acme.example/very/long/path\nok',
    ],
    ['a list item, continued under its text', ' * aaa bbb ccc', ' * aaa\n   bbb\n   ccc'],
    ['a numbered item', ' 12. aaa bbb', ' 12. aaa\n     bbb'],
    ['a quote, continued inside the quote', '> > aaa bbb ccc', '> > aaa\n> > bbb\n> > ccc'],
    ['several lines, each on its own', 'aaa bbb ccc\n\nddd', 'aaa bbb\nccc\n\nddd'],
  ])('folds %s', (_name, text, folded) => {
    expect(wrapText(text, 9)).toBe(folded);
  });

  it('carries at most two thirds of a line of quote markers or indentation onto the lines it continues', () => {
    expect(wrapText('> > > > > aaa bbb', 9)).toBe('> > > > > aaa\n> > > bbb');
    expect(wrapText(`${' '.repeat(12)}1. aaa bbb`, 9)).toBe(`${' '.repeat(12)}1. aaa\n${' '.repeat(6)}bbb`);
    // n markers before n words: each continued line once carried all n (a text of n² characters).
    const n = 20_000;
    const text = '> '.repeat(n) + 'a '.repeat(n);
    const folded = wrapText(text, 78);
    expect(folded.length).toBeLessThan(3 * text.length);
    expect(folded.split('\n').every((l, i) => i === 0 || l.length <= 78)).toBe(true);
  });
});

describe('the text alternative', () => {
  // html-to-text folding by itself: what plainText produced before it folded in one pass.
  const folding = compile({
    wordwrap: 78,
    limits: { maxDepth: MAX_TEXT_DEPTH, ellipsis: '…' },
    selectors: [
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    ],
  });
  const word = fc.oneof(
    fc.constantFrom(
      'the',
      'password',
      'reset',
      'Ünïcödé',
      'https://acme.example/reset?token=' + 'a'.repeat(90),
      '✓',
    ),
    fc.stringMatching(/^[a-z]{1,14}$/),
  );
  const text = fc.array(word, { minLength: 1, maxLength: 40 }).map((w) => w.join(' '));
  const block: fc.Arbitrary<string> = fc.oneof(
    text.map((t) => `<p>${t}</p>`),
    fc.tuple(text, text).map(([a, b]) => `<p>${a} <b>${b}</b></p>`),
    fc
      .tuple(text, text)
      .map(([t, href]) => `<p><a href="https://acme.example/${href.replace(/\W/g, '')}">${t}</a></p>`),
    fc
      .array(text, { minLength: 1, maxLength: 4 })
      .map((items) => `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`),
    fc
      .array(text, { minLength: 1, maxLength: 4 })
      .map((items) => `<ol>${items.map((i) => `<li>${i}</li>`).join('')}</ol>`),
    text.map((t) => `<blockquote><p>${t}</p><blockquote>${t}</blockquote></blockquote>`),
    text.map((t) => `<h2>${t}</h2>`),
  );

  it('folds ordinary messages exactly as html-to-text folded them', () => {
    fc.assert(
      fc.property(fc.array(block, { minLength: 1, maxLength: 6 }), (blocks) => {
        const html = blocks.join('\n');
        expect(plainText(html)).toBe(folding(html));
      }),
      { numRuns: 300 },
    );
  });
});
