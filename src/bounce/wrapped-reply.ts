// A diagnostic that wraps the remote server's reply in the reporting system's own summary. Cisco's
// AsyncOS (IronPort) words every refusal as its own code and label, then what the server said:
// "5.1.0 - Unknown address error ('550', ['5.1.1 <jane@x>: User unknown'])", or "… 552-'5.2.2 <jane@x>:
// over quota' (delivery attempts: 0)" (Amazon SES passes such text on). The label is AsyncOS's for
// any refusal at RCPT ("Unknown address error", whatever the server said) or at DATA ("Other mail
// system problem"), so its code and words say nothing of what happened: the quoted reply does.

// Anchored at the start, one bounded label, then the reply in one of the two quotings: linear in the
// (capped) text.
const WRAPPED =
  /^\s*(?:smtp;\s*)?[245]\.\d{1,3}\.\d{1,3} - [^(\n'"]{0,79}[^(\n'"\s] ?(?:\(\s*'([245]\d\d)'\s*,\s*\[\s*(['"])([^\n]*?)\2\s*[,\]]|([245]\d\d)-'([^'\n]*)')/i;

/** The remote server's reply (`550 5.1.1 …`) a wrapped diagnostic quotes; undefined when it is not one. */
export function wrappedReply(diagnostic: string): string | undefined {
  const m = WRAPPED.exec(diagnostic);
  if (!m) return undefined;
  const code = m[1] ?? m[4]!;
  const words = (m[3] ?? m[5]!).trim();
  return words === '' ? undefined : `${code} ${words}`;
}
