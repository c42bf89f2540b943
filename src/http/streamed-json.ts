// An answer whose one large string field is written a piece a turn of the event loop. Serialized in one
// go, the JSON of a message with 10 MiB of HTML held the loop 100–180 ms (escaping it, then encoding
// it for the socket), and ten such reads at once every request and SMTP reply behind them for a
// second and more. The rest of the answer is serialized as usual, around a placeholder the field's
// pieces replace.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { splitText } from '../split-text.js';

/** A string field longer than this (UTF-16 code units) is written in pieces. */
export const STREAMED_ABOVE = 256 * 1024;
/** Code units escaped and written in one turn: at most a few milliseconds of work. */
const PIECE = 128 * 1024;

/**
 * The JSON `serialize` makes with the large field's value, given in `pieces` (as stored: they are not
 * put together), written a piece a turn; undefined when the value is short enough to serialize at
 * once. `serialize(placeholder)` must give the answer's JSON with `placeholder` as that field's value
 * (a random string no other field holds). No piece may end inside a surrogate pair.
 */
export function streamedJson(
  serialize: (placeholder: string) => string,
  pieces: readonly string[],
): Readable | undefined {
  if (pieces.reduce((n, piece) => n + piece.length, 0) <= STREAMED_ABOVE) return undefined;
  const placeholder = `txmail-streamed-${randomUUID()}`;
  const json = serialize(placeholder);
  const at = json.indexOf(`"${placeholder}"`);
  // Never expected (the serializer writes the placeholder as it is): the answer whole, as before.
  if (at < 0) return Readable.from([serialize(pieces.join(''))]);
  const before = json.slice(0, at);
  const after = json.slice(at + placeholder.length + 2);
  return Readable.from(written(before, pieces, after), { objectMode: false });
}

/**
 * The turn of the loop the next piece is written in: one piece a turn for all the answers being
 * written at once, not one each (ten at once wrote ten pieces a turn, 40–130 ms of it).
 */
let lastTurn: Promise<unknown> = Promise.resolve();
function pieceTurn(): Promise<unknown> {
  lastTurn = lastTurn.then(() => nextTurn());
  return lastTurn;
}

async function* written(before: string, pieces: readonly string[], after: string): AsyncGenerator<string> {
  yield `${before}"`;
  for (const stored of pieces) {
    for (const piece of splitText(stored, PIECE)) {
      await pieceTurn();
      // The piece's JSON string without its quotes: no piece splits a surrogate pair, so their escapes
      // together are the whole value's.
      yield JSON.stringify(piece).slice(1, -1);
    }
  }
  yield `"${after}`;
}
