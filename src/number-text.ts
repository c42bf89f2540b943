// A number written in digits, for texts that are read back by a parser of digits (the configuration's
// variables: `txmail config`): JavaScript's own String(n) turns to exponent form past 1e21 and below
// 1e-6 (`1e+21`, `1e-7`), which none of those parsers takes.

export function numberText(n: number): string {
  // String(n) is already the shortest text that gives n back; only its exponent is written out.
  const text = String(n);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, whole, fraction = '', exponent] = m;
  const digits = whole! + fraction;
  const point = whole!.length + Number(exponent);
  if (point >= digits.length) return sign! + digits + '0'.repeat(point - digits.length);
  if (point > 0) return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${sign}0.${'0'.repeat(-point)}${digits}`;
}

/**
 * The shortest decimal text of `n` that gives `n` back exactly (0.1, not 0.10000000000000001), in
 * digits; `scale` is applied before writing (a rate of 0.001 written as the percentage 0.1: `scale`
 * 100), and the text is chosen so that Number(text) / scale is `n` again.
 */
export function exactText(n: number, scale = 1): string {
  for (let digits = 1; digits <= 17; digits++) {
    const text = numberText(Number((n * scale).toPrecision(digits)));
    if (Number(text) / scale === n) return text;
  }
  return numberText(n * scale);
}
