// punycode.js's ES module, by its path: the bare name would be Node's deprecated built-in in tests.
declare module 'punycode/punycode.es6.js' {
  export function toUnicode(input: string): string;
}
