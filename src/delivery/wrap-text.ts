// Folds the text alternative at 78 columns (RFC 5322 §2.1.1: lines SHOULD be at most 78 characters).
// html-to-text can fold by itself, but it copies the whole of a word again for every piece appended to
// it, so a word assembled from many inline elements (`<b>x</b>` a hundred thousand times) costs time
// quadratic in its length; this fold is one pass over the text. Words are never broken (a long link
// stays whole and clickable); a continued line keeps the quote markers and the list indentation of the
// line it continues, as html-to-text's own folding does, up to two thirds of a line.

// The quote markers ("> > ") and the list marker (" * ", " 1. ") a line starts with. Anchored, and
// every part is optional, so it matches at once without backtracking over the line.
const LEAD = /^((?:> ?)*)( *(?:(?:[*-]|\d+\.) )?)/;

/** `text` with every line longer than `width` folded at spaces. */
export function wrapText(text: string, width: number): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line.length <= width) {
      out.push(line);
      continue;
    }
    const [lead = '', quotes = '', marker = ''] = LEAD.exec(line) ?? [];
    // At most two thirds of a line is carried, leaving a third for the words: the lead is the sender's
    // text, and carried whole onto each of its words' lines a lead of n markers before n words made a
    // text of n² (64 KiB of HTML past the longest string V8 can make).
    const indent = (quotes + ' '.repeat(marker.length)).slice(0, Math.ceil((width * 2) / 3));
    let current = lead;
    let started = false; // a word follows the lead on the current line
    for (const word of line.slice(lead.length).split(' ')) {
      if (started && current.length + 1 + word.length > width) {
        out.push(current);
        current = indent + word;
      } else {
        current = started ? `${current} ${word}` : current + word;
      }
      started = true;
    }
    out.push(current);
  }
  return out.join('\n');
}
