// Trailing white space (SP and HTAB, RFC 5234 WSP) removed from a text by one scan from its end: a
// regular expression like /[ \t]+$/ tries the run from each of its positions in turn, so a long run
// followed by another character costs its length squared (hostile input, test/unit/mta-sts-policy.test.ts).

/** `s` without its trailing spaces and tabs, in time linear in their number. */
export function trimWspEnd(s: string): string {
  let end = s.length;
  while (end > 0) {
    const c = s.charCodeAt(end - 1);
    if (c !== 0x20 && c !== 0x09) break;
    end--;
  }
  return end === s.length ? s : s.slice(0, end);
}
