// A person forwarding a notice they got ("Fwd: Undelivered Mail Returned to Sender"), inline, attached,
// or with the report's parts kept as they came: its delivery-status fields and attached report are
// about that person's own message, never about ours, and must not be read as a report (a colleague's
// forward of a bounce about ap@ suppressed jane@). A relay passes bounces on from a mail system, a
// bounce handler or the null sender, or marks its mail automatic, or sends from a no-reply address.
import { angleAddress } from './address-scan.js';
import type { HeaderLookup } from './auto-reply.js';
import { sentByMailSystem } from './plain-bounce.js';

// One tag before a subject: a bracketed one ("[EXT]"), or a word and its colon, in the languages mail
// clients write them in. Replies ("Re:", "AW:", "SV:") and forwards alike: a forward may be answered.
const TAG =
  /^\s*(?:\[[^\]\n]{1,40}\]|\(?external\)?\s*[:\uff1a]?|(re|aw|sv|antw|r|rif|ref|res|odp|atb|fwd?|fw|wg|tr|rv|enc|doorst|i|vs|vb|\u8f6c\u53d1|\u8f49\u5bc4|\u56de\u590d|\u7b54\u590d)\s*[:\uff1a])/i;
// The forward tags among them: "Fwd:", Outlook's "FW:", German "WG:", French "TR:", Spanish "RV:",
// Portuguese "ENC:", Dutch "Doorst:", Italian "I:", Norwegian "VS:", Swedish "VB:", Chinese "转发:".
const FORWARD_TAG = /^(?:fwd?|fw|wg|tr|rv|enc|doorst|i|vs|vb|\u8f6c\u53d1|\u8f49\u5bc4)$/i;
// How many tags are looked through.
const MAX_TAGS = 8;
// Addresses no person writes from.
const AUTOMATED_SENDER =
  /^(?:no-?reply|do-?not-?reply|donotreply|notifications?|notify|alerts?|mailer|bounces?|postmaster|daemon)(?:[-+._][^@]*)?@/i;

/** Whether the subject carries a forward's tag among its leading tags ("Re: Fwd:", "[EXT] FW:"). */
export function forwardSubject(subject: string): boolean {
  let rest = subject;
  for (let i = 0; i < MAX_TAGS; i++) {
    const m = TAG.exec(rest);
    if (!m) return false;
    if (m[1] !== undefined && FORWARD_TAG.test(m[1])) return true;
    rest = rest.slice(m[0].length);
  }
  return false;
}

/** Whether the message is a person's forward: a forward's subject, from no mail system and no automaton. */
export function forwardedByPerson(header: HeaderLookup, subject: string, envelopeSender: string): boolean {
  if (!forwardSubject(subject) || sentByMailSystem(header, envelopeSender)) return false;
  const auto = header('auto-submitted')?.trim().toLowerCase();
  if (auto !== undefined && auto !== 'no') return false;
  const value = header('from') ?? '';
  const from = angleAddress(value) ?? value.trim();
  return !AUTOMATED_SENDER.test(envelopeSender) && !AUTOMATED_SENDER.test(from);
}
