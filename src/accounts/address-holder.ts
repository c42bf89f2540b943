// Who holds an address across the service (docs/design.md §2, "Members and roles"): an account (its
// signup address, its owner's) or an invited member (invited or joined). An address is one or the
// other, never both, since a log-in names who signs in by the address alone (accounts first): an
// account made at a member's address would hide the membership behind it, and an invitation of an
// account's address would never be used. Sign-up, the operator's `account create` and invitations all
// ask here, so the three cannot disagree about which addresses are taken.
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { MembersRepo } from '../db/members-repo.js';
import type { Account, MemberRow } from '../db/schema.js';

export type AddressHolder = { account: Account; member?: never } | { member: MemberRow; account?: never };

/** The account or the invited member at `address` (as accountAddress gives it); undefined when free. */
export async function addressHolder(
  repos: { accounts: Pick<AccountsRepo, 'findByEmail'>; members: Pick<MembersRepo, 'findInvitedByEmail'> },
  address: string,
): Promise<AddressHolder | undefined> {
  const account = await repos.accounts.findByEmail(address);
  if (account) return { account };
  const member = await repos.members.findInvitedByEmail(address);
  return member && { member };
}
