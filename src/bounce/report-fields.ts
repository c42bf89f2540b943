// RFC 822-style field groups, as in message/delivery-status (RFC 3464 §2.1) and
// message/feedback-report (RFC 5965 §3.1) bodies: "Name: value" lines, continuation lines start with
// white space, groups are separated by blank lines.

export type FieldGroup = Map<string, string[]>;

/** Groups of fields, names lower-cased, values unfolded and trimmed. */
export function parseFieldGroups(text: string): FieldGroup[] {
  const groups: FieldGroup[] = [];
  let group: FieldGroup = new Map();
  let last: { name: string; index: number } | undefined;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') {
      if (group.size > 0) groups.push(group);
      group = new Map();
      last = undefined;
      continue;
    }
    if (/^[ \t]/.test(line) && last) {
      const values = group.get(last.name)!;
      values[last.index] = `${values[last.index]} ${line.trim()}`;
      continue;
    }
    const m = /^([A-Za-z][A-Za-z0-9-]*)\s*:\s*(.*)$/.exec(line);
    if (!m) continue; // not a field: tolerated (real reports are often sloppy)
    const name = m[1]!.toLowerCase();
    const values = group.get(name) ?? [];
    values.push(m[2]!.trim());
    group.set(name, values);
    last = { name, index: values.length - 1 };
  }
  if (group.size > 0) groups.push(group);
  return groups;
}

/** The first value of a field. */
export function field(group: FieldGroup, name: string): string | undefined {
  return group.get(name)?.[0];
}

/** An address-type field, `rfc822; jane@example.org` → `jane@example.org` (RFC 3464 §2.3.2). */
export function addressField(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const address = (value.includes(';') ? value.slice(value.indexOf(';') + 1) : value)
    .trim()
    .replace(/^<|>$/g, '');
  return address.includes('@') ? address : undefined;
}

/** A type-prefixed text field, `smtp; 550 5.1.1 no such user` → `550 5.1.1 no such user`. */
export function typedText(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return /^[A-Za-z-]+\s*;/.test(value) ? value.slice(value.indexOf(';') + 1).trim() : value;
}
