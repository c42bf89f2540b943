// The labels of a host name as DNS and mail want them (RFC 1123 §2.1, RFC 5321 §2.3.5): letters, digits
// and hyphens, 1–63 characters, no hyphen at either end; a top-level label of digits only is no name
// (an IPv4 address, or nothing a registry hands out). Shared by sending domains and TXMAIL_HOSTNAME.

const LDH_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/** True when every label is a letters-digits-hyphens label (either case). */
export function allLdhLabels(labels: readonly string[]): boolean {
  return labels.every((l) => LDH_LABEL.test(l));
}

/** True when the last label is digits only. */
export function numericTopLabel(labels: readonly string[]): boolean {
  return /^[0-9]+$/.test(labels[labels.length - 1] ?? '');
}
