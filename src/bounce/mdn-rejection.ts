// A refusal sent as a message disposition notification (RFC 5429 §2.2.2: Sieve's `reject` after the
// SMTP transaction, and Dovecot's delivery agent refusing a message over the mailbox's quota): an MDN
// whose disposition is `automatic-action/…; deleted`, which says the message was refused, not read: a
// bounce. A read receipt, or Outlook's "deleted without being read", has a `deleted` disposition too;
// what marks a refusal is the responder's own mark (`Auto-Submitted: auto-replied (rejected)`) or
// its words ("Rejected:" in the subject, "was automatically rejected" in the text). The reason is the
// text after those words: a quota, or whatever the recipient's Sieve script says.
import { addressField, field, parseFieldGroups } from './report-fields.js';
import type { HeaderLookup } from './auto-reply.js';
import { cap, MAX_LINE } from './text-limits.js';

const REJECTED_MARK = /\(rejected\)/i;
const REJECTED_SUBJECT = /^\s*rejected:/i;
// "Your message to <jane@x> was automatically rejected:" (Dovecot, Pigeonhole): never a bare "was
// rejected", which a receipt quoting the original's subject ("Your payment has been rejected") holds.
const REJECTED_WORDS = /(?:was|has been) automatically rejected/i;
// Outlook's "Not read" receipt: the message was deleted unread, not refused.
const NOT_READ = /without being read|not read:/i;
// The reason's lines at most, after the words that say the message was rejected.
const MAX_REASON_LINES = 4;

export interface MdnRejection {
  /** The Final-Recipient, lower case; undefined when the notification names none. */
  recipient: string | undefined;
  /** Why the message was refused, as the notification says it. */
  reason: string;
}

/**
 * The refusal an MDN reports (`fields`: its message/disposition-notification part; `text`: its
 * human-readable part), or undefined when it reports a reading, a deletion by hand, or anything else.
 */
export function readMdnRejection(
  fields: string,
  header: HeaderLookup,
  subject: string,
  text: string,
): MdnRejection | undefined {
  const group = parseFieldGroups(fields).find((g) => g.has('disposition'));
  const disposition = group && field(group, 'disposition');
  if (!group || !disposition) return undefined;
  const [mode = '', type = ''] = disposition.split(';').map((p) => p.trim().toLowerCase());
  if (!mode.startsWith('automatic-action') || !type.startsWith('deleted')) return undefined;
  const marked =
    REJECTED_MARK.test(header('auto-submitted') ?? '') ||
    REJECTED_SUBJECT.test(subject) ||
    REJECTED_WORDS.test(text);
  if (!marked || NOT_READ.test(subject) || NOT_READ.test(text)) return undefined;
  return {
    recipient: addressField(field(group, 'final-recipient'))?.toLowerCase(),
    reason: cap(reasonIn(text) || text.trim().replace(/\s+/g, ' ')),
  };
}

/**
 * What follows "was automatically rejected …:" (the rest of that line after its colon, then the
 * lines up to a blank one): Dovecot's "Quota exceeded (mailbox for user is full)", a Sieve script's
 * own words. Scans a bounded window after the first such words, so it is linear in the text.
 */
function reasonIn(text: string): string | undefined {
  const m = REJECTED_WORDS.exec(text);
  if (!m) return undefined;
  const after = text.slice(m.index + m[0].length, m.index + m[0].length + 4 * MAX_LINE);
  const colon = after.indexOf(':');
  const newline = after.indexOf('\n');
  if (colon < 0 || (newline >= 0 && newline < colon)) return undefined;
  const lines: string[] = [];
  for (const line of after.slice(colon + 1).split('\n')) {
    if (line.trim() === '') {
      if (lines.length > 0) break;
      continue;
    }
    lines.push(line.trim());
    if (lines.length === MAX_REASON_LINES) break;
  }
  return lines.join(' ') || undefined;
}
