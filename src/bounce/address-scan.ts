// Finding addresses in text one character at a time. The regular expressions this replaces tried the
// local part from every position of a long run of letters, so 80 KB of them in X-Failed-Recipients
// cost seconds; these look at each character a bounded number of times.

// RFC 5322 §3.2.3 atext, and the dot of a dot-atom; with RFC 6531's UTF-8, the letters and marks of
// the alphabets written with spaces between words (Latin, Greek, Cyrillic). Not Chinese, Japanese or
// Korean, which notices run on into an address ("收件人jane@x"). Domains as sent: ASCII (A-labels).
const ATEXT =
  /^(?:[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]|[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{M}])$/u;
const ALNUM = /^[A-Za-z0-9]$/;
const DOMAIN = /^[A-Za-z0-9.-]$/;
const IN_ANGLES = /^[^<>\s]$/;

/**
 * The first address in `text`: an atext local part, `@`, and a domain of letters, digits, dots and
 * hyphens that starts and ends with a letter or digit (`x <jane@example.org>,` → `jane@example.org`).
 */
export function firstAddress(text: string): string | undefined {
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    if (at === 0 || !ATEXT.test(text[at - 1]!) || !ALNUM.test(text[at + 1] ?? '')) continue;
    // The local part runs back to the previous non-atext character: never past the previous '@', so
    // the runs scanned back from successive '@'s do not overlap.
    let start = at - 1;
    while (start > 0 && ATEXT.test(text[start - 1]!)) start--;
    let end = at + 2;
    while (end < text.length && DOMAIN.test(text[end]!)) end++;
    while (!ALNUM.test(text[end - 1]!)) end--;
    return text.slice(start, end);
  }
  return undefined;
}

/**
 * What the first `<…>` holding an address encloses: nothing in it is white space or another angle
 * bracket, and an `@` in it has something on both sides (`"Jane" <jane@example.org>` → `jane@…`).
 * With `needAt` false, any such `<…>` (a Message-ID: `<id@host>`).
 */
export function angleAddress(text: string, needAt = true): string | undefined {
  for (let open = text.indexOf('<'); open >= 0; open = text.indexOf('<', open + 1)) {
    let close = open + 1;
    while (close < text.length && IN_ANGLES.test(text[close]!)) close++;
    if (text[close] !== '>' || close === open + 1) continue;
    const inside = text.slice(open + 1, close);
    // An '@' with something before it and after it (the first one past the first character).
    const at = inside.indexOf('@', 1);
    if (!needAt || (at > 0 && at < inside.length - 1)) return inside;
  }
  return undefined;
}
