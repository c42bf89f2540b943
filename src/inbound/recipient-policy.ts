// Which envelope recipients the receiver accepts (docs/design.md §7): VERP addresses whose HMAC tag checks
// out and the complaint address fbl@, on the service's return-path domains only. Everything else is
// refused at RCPT, so the receiver is never an open relay and forged bounces never reach the database.
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

export async function checkRecipient(address: string, deps: RecipientPolicyDeps): Promise<RecipientVerdict> {
  const at = address.lastIndexOf('@');
  if (at <= 0) return { accept: false };
  const local = address.slice(0, at).toLowerCase();
  const domain = address
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, '');
  // The tag is checked first: it costs no database look-up, and most refused mail fails it.
  const messageId = local === COMPLAINT_LOCAL_PART ? undefined : deps.verp.messageId(local);
  if (local !== COMPLAINT_LOCAL_PART && messageId === undefined) return { accept: false };
  if (!(await isReturnPathDomain(domain, deps))) return { accept: false };
  return messageId === undefined ? { accept: true, kind: 'fbl' } : { accept: true, kind: 'verp', messageId };
}

async function isReturnPathDomain(domain: string, deps: RecipientPolicyDeps): Promise<boolean> {
  if (domain === deps.testDomain) return true;
  const prefix = `${deps.returnPathLabel}.`;
  if (!domain.startsWith(prefix)) return false;
  return deps.isCustomerDomain(domain.slice(prefix.length));
}
