// The QR code of a two-factor key's otpauth:// URL, for authenticator apps to scan (the Security page).
// The symbol is made here in the browser, so the secret never leaves the page for an image service.
import qrcode from 'qrcode-generator';

/** Modules of the symbol, row by row: true is dark. Error correction M (15 %), the version the data needs. */
export function qrMatrix(text: string): boolean[][] {
  const code = qrcode(0, 'M');
  // The library's byte mode takes each character's low byte: give it the UTF-8 bytes, one a character.
  code.addData(Array.from(new TextEncoder().encode(text), (b) => String.fromCharCode(b)).join(''), 'Byte');
  code.make();
  const n = code.getModuleCount();
  return Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => code.isDark(r, c)));
}

/** The quiet zone the standard asks around the symbol, in modules (ISO/IEC 18004 §6.3.8). */
export const QUIET_ZONE = 4;

/** One SVG path drawing every dark module as a 1×1 square, offset by the quiet zone. */
export function qrPath(matrix: boolean[][]): string {
  const parts: string[] = [];
  matrix.forEach((row, r) => {
    let c = 0;
    while (c < row.length) {
      if (!row[c]) {
        c++;
        continue;
      }
      // A run of dark modules is one rectangle: fewer path commands than one square each.
      const start = c;
      while (c < row.length && row[c]) c++;
      parts.push(`M${start + QUIET_ZONE} ${r + QUIET_ZONE}h${c - start}v1h-${c - start}z`);
    }
  });
  return parts.join('');
}
