// The people of an account (docs/design.md §2, "Members and roles"): the owner (the account's signup
// address and password) and invited members with a role each. An invitation is a link mailed from
// onboarding@ to the address, valid 7 days, stored only as the hash of its token; opening it sets the
// member's password and starts a session. One invited membership per address across the service (a
// log-in names the member by its address); an address that is already an account's cannot be invited
// (address-holder.ts, which sign-up asks too).
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { MembersRepo } from '../db/members-repo.js';
import type { Account, MemberRole, MemberRow } from '../db/schema.js';
import { AppError, rateLimited } from '../errors.js';
import { newId } from '../ids.js';
import type { AccountMail } from './account-mail.js';
import { inviteMail } from './account-mail-content.js';
import { accountAddress } from './accounts.js';
import { addressHolder } from './address-holder.js';
import type { AttemptLimiter } from './attempt-limiter.js';
import { checkNewPassword, type PasswordHasher } from './passwords.js';
import { hashSecret } from './sessions.js';

export const INVITE_TTL_MS = 7 * 24 * 3600_000;
/** The least time between two mails of one invitation: a double click or a script mails once. */
export const INVITE_RESEND_GAP_MS = 60_000;
/**
 * Invitations an account may mail in a day (new ones and ones mailed again): enough to bring a team in,
 * too few to use the service's test domain for mailing strangers (SECURITY.md, "Mail to strangers").
 */
export const INVITES_PER_ACCOUNT_PER_DAY = 20;

/** The counts an invitation is mailed against (wiring/accounts.ts). */
export interface InviteLimits {
  /** INVITES_PER_ACCOUNT_PER_DAY, by account. */
  perAccount: AttemptLimiter;
  /**
   * The mail txmail may send one address in an hour, every kind under one count: sign-up's (signup.ts
   * MailRequestLimits), so an invite-and-remove loop cannot fill an inbox either.
   */
  perAddress: AttemptLimiter;
}

/** A member as the API shows it. */
export function memberJson(m: MemberRow) {
  return {
    id: m.id,
    email: m.email,
    role: m.role,
    status: m.accepted_at === null ? 'invited' : 'active',
    // Until the invitation is used: its link's end (it may be past; mailing it again makes a new one).
    invite_expires_at: m.invite_expires_at === null ? null : new Date(m.invite_expires_at).toISOString(),
    totp_enabled: m.totp_enabled_at !== null,
    created_at: new Date(m.created_at).toISOString(),
  };
}

export class Members {
  constructor(
    private readonly settings: {
      publicUrl: string;
      /**
       * TXMAIL_OPERATOR_EMAIL, lower-cased as accountAddress gives addresses (config/kinds.ts emailAddress):
       * the operator's own account's address (operator-mail.ts), never a member.
       */
      operatorEmail?: string | undefined;
    },
    private readonly deps: {
      repo: MembersRepo;
      accounts: AccountsRepo;
      mail: AccountMail;
      clock: Clock;
      passwords: PasswordHasher;
      /** Called when keys' rights changed (a role change or removal): forget cached keys. */
      keysChanged: () => void;
      limits: InviteLimits;
    },
  ) {}

  async list(account: Account): Promise<MemberRow[]> {
    await this.deps.repo.ensureOwner(account);
    return this.deps.repo.list(account.id);
  }

  /** Invites `email` with `role`: a new pending member and the mailed link. */
  async invite(account: Account, email: string, role: MemberRole, invitedBy: MemberRow): Promise<MemberRow> {
    // Refused with the reason (`"email" has a local part … of 250 characters; at most 64`), not a
    // bare "must be an email address".
    const address = accountAddress(email);
    // The operator's account is made at its first notice: an invitation of that address first would make
    // every operator notice (a blocklisting, say) fail, as an address has an account or a membership.
    if (address === this.settings.operatorEmail) {
      throw new AppError('member_exists', `${address} is the address of this service's operator`);
    }
    if (await addressHolder({ accounts: this.deps.accounts, members: this.deps.repo }, address)) {
      throw new AppError('member_exists', `${address} already has a txmail account or membership`);
    }
    const now = this.deps.clock.now();
    await this.mayMail(account, address, now);
    const token = newInviteToken();
    const row: MemberRow = {
      id: newId(),
      account_id: account.id,
      email: address,
      role,
      password_hash: null,
      created_at: now,
      accepted_at: null,
      invite_token_hash: hashSecret(token),
      invite_expires_at: now + INVITE_TTL_MS,
      totp_pending_secret: null,
      totp_secret: null,
      totp_enabled_at: null,
      totp_last_step: null,
    };
    try {
      await this.deps.repo.insert(row);
    } catch {
      // The unique address index: a concurrent invitation of the same address won.
      throw new AppError('member_exists', `${address} already has a txmail account or membership`);
    }
    await this.mailInvite(account, row, token, invitedBy);
    return row;
  }

  /**
   * Mails an invitation again with a new link, valid 7 days from now; the old link stops working. For a
   * link that expired or a mail that never arrived. `invitation_accepted` once the member has joined.
   */
  async resendInvite(account: Account, id: string, by: MemberRow): Promise<MemberRow> {
    const member = await this.find(account, id);
    const now = this.deps.clock.now();
    const mayRenew = (m: MemberRow): number => {
      if (m.accepted_at !== null || m.invite_expires_at === null) {
        throw new AppError(
          'invitation_accepted',
          `${m.email} has joined already: there is no invitation to send`,
        );
      }
      const sentAt = m.invite_expires_at - INVITE_TTL_MS;
      if (now < sentAt + INVITE_RESEND_GAP_MS) {
        throw rateLimited(
          `the invitation of ${m.email} was mailed less than a minute ago`,
          (sentAt + INVITE_RESEND_GAP_MS - now) / 1000,
        );
      }
      return m.invite_expires_at;
    };
    const expiresAt = mayRenew(member);
    await this.mayMail(account, member.email, now);
    const token = newInviteToken();
    const renewed = await this.deps.repo.renewInvite(
      account.id,
      id,
      expiresAt,
      hashSecret(token),
      now + INVITE_TTL_MS,
    );
    if (!renewed) {
      // Changed since it was read: mailed by a request at the same moment (a double click), joined,
      // or removed. Said as it now is; nothing is mailed.
      mayRenew(await this.find(account, id));
      throw rateLimited(`the invitation of ${member.email} was mailed less than a minute ago`, 60);
    }
    await this.mailInvite(account, renewed, token, by);
    return renewed;
  }

  /**
   * What a live invitation link is for, before it is used: the account it joins (by its owner's
   * address), the role and the invited address. `invalid_token` as `accept` says it.
   */
  async describeInvite(token: string): Promise<{ member: MemberRow; account: Account }> {
    const member = await this.deps.repo.liveInvite(hashSecret(token), this.deps.clock.now());
    const account = member && (await this.deps.accounts.findById(member.account_id));
    if (!member || !account) throw invalidInvite();
    return { member, account };
  }

  /**
   * Counts an invitation's mail against the account's day and the address's hour, or refuses it: an
   * account of open sign-up, sandboxed or not, could otherwise mail any address without end, and mail
   * one address again and again by inviting and removing it.
   */
  private async mayMail(account: Account, address: string, now: number): Promise<void> {
    const { perAccount, perAddress } = this.deps.limits;
    const byAccount = await perAccount.take([account.id], now);
    if (!byAccount.allowed) {
      throw rateLimited(
        `this account has mailed its ${INVITES_PER_ACCOUNT_PER_DAY} invitations for today; try again in ${hoursOf(byAccount.retryAfterSeconds)}`,
        byAccount.retryAfterSeconds,
      );
    }
    const toAddress = await perAddress.take([address], now);
    if (!toAddress.allowed) {
      await perAccount.refund(account.id, now);
      throw rateLimited(
        `too many links were mailed to ${address} in the last hour; try again in ${Math.ceil(toAddress.retryAfterSeconds / 60)} minutes`,
        toAddress.retryAfterSeconds,
      );
    }
  }

  private async mailInvite(account: Account, member: MemberRow, token: string, by: MemberRow): Promise<void> {
    const link = `${this.settings.publicUrl.replace(/\/+$/, '')}/accept-invite?token=${token}`;
    await this.deps.mail.send(account, inviteMail(link, account.email, by.email, member.role), member.email);
  }

  /** Uses an invitation link: the member's password is set; answers the member and its account. */
  async accept(token: string, password: string): Promise<{ account: Account; member: MemberRow }> {
    checkNewPassword(password);
    const hash = await this.deps.passwords.hash(password);
    const member = await this.deps.repo.acceptInvite(hashSecret(token), hash, this.deps.clock.now());
    const account = member && (await this.deps.accounts.findById(member.account_id));
    if (!member || !account) throw invalidInvite();
    return { account, member };
  }

  async setRole(account: Account, id: string, role: MemberRole): Promise<MemberRow> {
    if (!(await this.deps.repo.setRole(account.id, id, role))) throw notFound(id);
    this.deps.keysChanged();
    return (await this.deps.repo.find(account.id, id))!;
  }

  async remove(account: Account, id: string): Promise<void> {
    if (!(await this.deps.repo.remove(account.id, id, this.deps.clock.now()))) throw notFound(id);
    this.deps.keysChanged();
  }

  async find(account: Account, id: string): Promise<MemberRow> {
    const m = await this.deps.repo.find(account.id, id);
    if (!m) throw notFound(id);
    return m;
  }
}

const newInviteToken = () => randomBytes(32).toString('base64url');

function invalidInvite(): AppError {
  return new AppError(
    'invalid_token',
    'this invitation is unknown, used already or expired; ask for a new one',
  );
}

function notFound(id: string): AppError {
  return new AppError(
    'not_found',
    `no invited member with id "${id}" in this account (the owner cannot be changed)`,
  );
}

/** "3 hours", "1 hour", "40 minutes": a wait in words. */
function hoursOf(seconds: number): string {
  if (seconds < 3600) return `${Math.ceil(seconds / 60)} minutes`;
  const hours = Math.ceil(seconds / 3600);
  return hours === 1 ? '1 hour' : `${hours} hours`;
}
