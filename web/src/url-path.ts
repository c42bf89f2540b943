// Paths built from values: every value put into a path (an id from the address bar, an address, a name)
// is one segment, encoded, so `/api/domains/${id}/verify` with an id of `a/../b` or `%2F` names that
// id and never another route. The dashboard's route ids are decoded once where the page is chosen
// (app.tsx), and every path made from them encodes them again here.

/** `/api/domains/${id}/verify` with each value percent-encoded as one path segment. */
export function urlPath(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce(
    (out, part, i) => out + (i === 0 ? '' : encodeURIComponent(String(values[i - 1]))) + part,
    '',
  );
}

/** A path segment from the address bar as the value it names; undefined when it is not valid percent-encoding. */
export function routeSegment(segment: string | undefined): string | undefined {
  if (segment === undefined || segment === '') return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
