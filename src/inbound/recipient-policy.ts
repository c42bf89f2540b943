// Which envelope recipients the receiver accepts (docs/design.md §7): VERP addresses whose HMAC tag checks
// out, the complaint address fbl@ and postmaster@, on the service's return-path domains only, and the
// bare `postmaster` (RFC 5321 §4.5.1: a server MUST accept it, with no domain and at every domain it
// serves; mail to it is read like mail to fbl@). Everything else is refused at RCPT, so the receiver is
// never an open relay and forged bounces never reach the database.
import type { Verp } from '../delivery/verp.js';

export type RecipientVerdict =
  { accept: true; kind: 'verp'; messageId: string } | { accept: true; kind: 'fbl' } | { accept: false };

export interface RecipientPolicyDeps {
  verp: Verp;
  /** `send` in `send.<customer domain>`. */
  returnPathLabel: string;
  testDomain: string;
  isCustomerDomain(name: string): Promise<boolean>;
}

export const COMPLAINT_LOCAL_PART = 'fbl';
/** RFC 5321 §4.5.1's reserved mailbox, any case. */
const POSTMASTER = 'postmaster';

export async function checkRecipient(address: string, deps: RecipientPolicyDeps): Promise<RecipientVerdict> {
  const at = address.lastIndexOf('@');
  if (at === -1 && address.toLowerCase() === POSTMASTER) return { accept: true, kind: 'fbl' };
  if (at <= 0) return { accept: false };
  const local = address.slice(0, at).toLowerCase();
  const domain = address
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, '');
  // The tag is checked first: it costs no database look-up, and most refused mail fails it.
  const reserved = local === COMPLAINT_LOCAL_PART || local === POSTMASTER;
  const messageId = reserved ? undefined : deps.verp.messageId(local);
  if (!reserved && messageId === undefined) return { accept: false };
  if (!(await isReturnPathDomain(domain, deps))) return { accept: false };
  return messageId === undefined ? { accept: true, kind: 'fbl' } : { accept: true, kind: 'verp', messageId };
}

async function isReturnPathDomain(domain: string, deps: RecipientPolicyDeps): Promise<boolean> {
  if (domain === deps.testDomain) return true;
  const prefix = `${deps.returnPathLabel}.`;
  if (!domain.startsWith(prefix)) return false;
  return deps.isCustomerDomain(domain.slice(prefix.length));
}
