// Text a person or a program chose (an API key's name, a webhook's description, a bounce's reason, a
// subject) may hold Unicode's invisible direction controls: "a\u202Eevil.com" shows as "amoc.live".
// Where such text is shown, each control is written as its code point instead, so what is on screen
// is what is stored; the elements around it isolate its direction too (styles.css `.free-text`).

// The embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) and the marks (U+200E,
// U+200F, U+061C).
const DIRECTION_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** `text` with every direction control shown as `[U+202E]`. */
export function visibleControls(text: string): string {
  return text.replace(
    DIRECTION_CONTROLS,
    (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`,
  );
}
