// CSV as RFC 4180 writes it (CRLF rows, a field quoted when it holds a comma, a quote, CR or LF, quotes
// doubled), with spreadsheet formulas neutralised: a cell that begins with = + - @ (or a tab or CR,
// which some spreadsheets skip before reading one) is prefixed with ', so a subject an attacker chose
// cannot run as a formula when the export is opened.
const FORMULA_START = /^[=+\-@\t\r]/;
// A semicolon too: spreadsheets in locales whose list separator is ';' split an unquoted cell there,
// and ";=1+1" would then start a cell of its own with a formula.
const NEEDS_QUOTES = /[",;\r\n]/;

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let s = String(value);
  if (typeof value === 'string' && FORMULA_START.test(s)) s = `'${s}`;
  return NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function csvRow(values: (string | number | null)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
