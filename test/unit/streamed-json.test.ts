// An answer's large string field written a piece a turn (http/streamed-json.ts): the same JSON as
// serialized at once, whatever the text (quotes, control characters, astral characters cut nowhere
// inside a pair) and however it was stored in pieces, with the event loop turning between pieces.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STREAMED_ABOVE, streamedJson } from '../../src/http/streamed-json.js';
import { splitText } from '../../src/split-text.js';
import { turnsDuring } from '../helpers/loop-turns.js';

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

const serializer = (placeholder: string) =>
  JSON.stringify({ id: 'm1', message: placeholder, events: [{ message: '' }] });

describe('streamedJson', () => {
  it('gives the JSON the whole value would, however the value is stored in pieces', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({
          unit: fc.constantFrom('a', '"', '\\', '\n', '\u0001', 'é', '\u2028', '\u{1F600}', '<'),
          minLength: 1,
          maxLength: 40,
        }),
        fc.integer({ min: 1, max: 100_000 }),
        async (unit, pieceLength) => {
          const value = unit.repeat(Math.ceil((STREAMED_ABOVE + 1) / unit.length));
          const stream = streamedJson(serializer, splitText(value, pieceLength));
          expect(stream).toBeDefined();
          expect(JSON.parse(await text(stream!))).toEqual({
            id: 'm1',
            message: value,
            events: [{ message: '' }],
          });
        },
      ),
      { numRuns: 15 },
    );
  });

  it('lets the loop turn between pieces', async () => {
    const value = 'x'.repeat(4 * 1024 * 1024);
    const { result: json, turns } = await turnsDuring(() => text(streamedJson(serializer, [value])!));
    expect(JSON.parse(json).message).toBe(value);
    // 4 Mi code units in pieces of 128 Ki: a turn each.
    expect(turns).toBeGreaterThanOrEqual(32);
  });

  it('leaves a value up to STREAMED_ABOVE to the usual serialization', () => {
    expect(streamedJson(serializer, ['x'.repeat(STREAMED_ABOVE - 10), 'y'.repeat(10)])).toBeUndefined();
    expect(streamedJson(serializer, [])).toBeUndefined();
  });
});
