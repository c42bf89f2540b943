// RFC 822-style field groups, as in message/delivery-status (RFC 3464 §2.1) and
// message/feedback-report (RFC 5965 §3.1) bodies: "Name: value" lines, continuation lines start with
// white space, groups are separated by blank lines.
import { cap, cappedLines, MAX_LINE } from './text-limits.js';

export type FieldGroup = Map<string, string[]>;

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9-]*$/;

/**
 * Groups of fields, names lower-cased, values unfolded and trimmed. Lines, and values after unfolding,
 * are cut to 998 characters (RFC 5322 §2.1.1) before anything looks at them, and a line is split at
 * its first colon by position, not by a pattern, so the cost stays linear in the text's length.
 */
export function parseFieldGroups(text: string): FieldGroup[] {
  const groups: FieldGroup[] = [];
  let group: FieldGroup = new Map();
  let last: { name: string; index: number } | undefined;
  for (const line of cappedLines(text)) {
    if (line.trim() === '') {
      if (group.size > 0) groups.push(group);
      group = new Map();
      last = undefined;
      continue;
    }
    if ((line[0] === ' ' || line[0] === '\t') && last) {
      const values = group.get(last.name)!;
      const value = values[last.index]!;
      // Unfolded, the value is still one header line's worth (RFC 5322 §2.2.3, §2.1.1).
      if (value.length < MAX_LINE) values[last.index] = cap(`${value} ${line.trim()}`);
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trimEnd() : '';
    if (!FIELD_NAME.test(name)) continue; // not a field: tolerated (real reports are often sloppy)
    const key = name.toLowerCase();
    const values = group.get(key) ?? [];
    values.push(line.slice(colon + 1).trim());
    group.set(key, values);
    last = { name: key, index: values.length - 1 };
  }
  if (group.size > 0) groups.push(group);
  return groups;
}

/** The first value of a field. */
export function field(group: FieldGroup, name: string): string | undefined {
  return group.get(name)?.[0];
}

/** Every value of a field that may appear more than once, in order. */
export function fieldValues(group: FieldGroup, name: string): string[] {
  return group.get(name) ?? [];
}

/**
 * An address-type field, `rfc822; jane@example.org` → `jane@example.org` (RFC 3464 §2.3.2); some
 * systems write a display name before it (`rfc822; Jane Doe <jane@example.org>`): the address in
 * angle brackets then.
 */
export function addressField(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const typed = (value.includes(';') ? value.slice(value.indexOf(';') + 1) : value).trim();
  const bracketed = /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(typed);
  const address = bracketed ? bracketed[1]! : typed.replace(/^<|>$/g, '');
  return address.includes('@') ? address : undefined;
}

/** A type-prefixed text field, `smtp; 550 5.1.1 no such user` → `550 5.1.1 no such user`. */
export function typedText(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return /^[A-Za-z-]+\s*;/.test(value) ? value.slice(value.indexOf(';') + 1).trim() : value;
}
