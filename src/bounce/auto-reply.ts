// Automatic replies (vacation notices, autoresponders) that come back to the return path: not bounces.

export interface HeaderLookup {
  /** The unfolded value of the first header with this (lower-case) name. */
  (name: string): string | undefined;
}

const AUTO_SUBJECT =
  /^\s*(auto(matic)?[ -]?(reply|response|antwort)|out of (the )?office|abwesenheit|absence|vacation|away from (the )?office|on leave)\b/i;

/** Why a message is an automatic reply, or undefined when it is not recognisably one. */
export function autoReplyReason(header: HeaderLookup, subject: string): string | undefined {
  // RFC 3834 §5: anything but "no" marks an automatic message.
  const auto = header('auto-submitted')?.trim().toLowerCase();
  if (auto && auto !== 'no') return `Auto-Submitted: ${auto}`;
  if (header('x-autoreply') !== undefined) return 'X-Autoreply';
  if (header('x-autorespond') !== undefined) return 'X-Autorespond';
  const precedence = header('precedence')?.trim().toLowerCase();
  if (precedence === 'auto_reply') return 'Precedence: auto_reply';
  if (AUTO_SUBJECT.test(subject)) return `subject "${subject.slice(0, 80)}"`;
  return undefined;
}
