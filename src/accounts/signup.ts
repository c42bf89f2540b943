// The dashboard's sign-up, which tells nobody whether an address has an account, and the link that
// finishes it. A sign-up answers the same (202, "check your inbox") for every address after doing the
// same work: hash the password, commit one two-statement transaction, queue one email. A new address
// (or one whose sign-up nobody finished) gets an account that is unverified and has no password, and a
// link that carries the password's hash; an address whose account has a password or is verified gets a
// notice and a mail saying someone tried. Only the link sets the password and starts the first session,
// so nobody who cannot read the inbox ever holds a way into an account at that address, and a sign-up
// never replaces a password, whoever set it (see ARCHITECTURE.md).
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { MembersRepo } from '../db/members-repo.js';
import type { Account, AccountTokenRow, MemberRow } from '../db/schema.js';
import type { SessionsRepo } from '../db/sessions-repo.js';
import type { SignupsRepo } from '../db/signups-repo.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import type { AccountMail } from './account-mail.js';
import { memberSignupAttemptMail, signupAttemptMail, verificationMail } from './account-mail-content.js';
import { accountAddress, isUnclaimedSignup } from './accounts.js';
import { addressHolder } from './address-holder.js';
import type { AttemptLimiter } from './attempt-limiter.js';
import { clientNetwork } from '../client-network.js';
import { checkNewPassword, type PasswordHasher } from './passwords.js';
import { hashSecret, type ActiveSession, type SessionOrigin, type Sessions } from './sessions.js';
import { DEFAULT_CONTENT_RETENTION_DAYS } from './content-retention.js';

export const SIGNUP_LINK_TTL_MS = 48 * 3600_000;
/** Sign-ups (and password reset requests, which share the count) per client network and hour. */
export const SIGNUPS_PER_IP_PER_HOUR = 20;
/** Mails a stranger can make txmail send to one address in an hour (sign-up, verification, reset). */
export const MAILS_PER_ADDRESS_PER_HOUR = 5;

/**
 * The limits sign-up shares with the reset and verification requests (dashboard-auth.ts), built once
 * (wiring/accounts.ts) and handed to both, so each is one count whichever page spends it.
 */
export interface MailRequestLimits {
  /** Sign-ups and reset requests per client network: SIGNUPS_PER_IP_PER_HOUR. */
  perClient: AttemptLimiter;
  /**
   * Mail a stranger can make txmail send to an address, every kind under one key (the address):
   * MAILS_PER_ADDRESS_PER_HOUR, enough for a person, useless for flooding an inbox or spending the
   * test domain's reputation.
   */
  perAddress: AttemptLimiter;
}

export interface SignupSettings {
  signup: 'open' | 'closed';
  /** Base of the links in mail, TXMAIL_PUBLIC_URL. */
  publicUrl: string;
}

export class Signup {
  constructor(
    private readonly settings: SignupSettings,
    private readonly deps: {
      accountsRepo: AccountsRepo;
      signupsRepo: SignupsRepo;
      sessionsRepo: SessionsRepo;
      sessions: Sessions;
      mail: AccountMail;
      limits: MailRequestLimits;
      clock: Clock;
      passwords: PasswordHasher;
      /** Invited members' addresses are taken too (address-holder.ts). */
      members: MembersRepo;
    },
  ) {}

  get open(): boolean {
    return this.settings.signup === 'open';
  }

  /**
   * Resolves the same way whether or not the address has an account: every refusal (closed, malformed,
   * too many from this network) comes before anything is looked up, and every outcome hashes the
   * password, commits one transaction of two statements and queues one email before resolving.
   */
  async start(email: string, password: string, ip: string): Promise<void> {
    if (!this.open) {
      throw new AppError(
        'signup_closed',
        'sign-up is closed on this server; ask its operator for an account',
      );
    }
    const address = accountAddress(email);
    checkNewPassword(password);
    const now = this.deps.clock.now();
    const fromIp = await this.deps.limits.perClient.take([clientNetwork(ip)], now);
    if (!fromIp.allowed) {
      throw new AppError(
        'rate_limit_exceeded',
        `too many sign-ups from your address; try again in ${Math.ceil(fromIp.retryAfterSeconds / 60)} minutes`,
        { 'Retry-After': String(fromIp.retryAfterSeconds) },
      );
    }
    // Per address the answer stays 202 (a refusal would tell that someone signed up with it); past the
    // limit no mail is sent, whichever mail it would have been.
    const mailAllowed = (await this.deps.limits.perAddress.take([address], now)).allowed;
    // The slow step, taken in every case, so the time of the answer does not tell the cases apart.
    const passwordHash = await this.deps.passwords.hash(password);
    if (!mailAllowed) return;
    const at = new Date(now);
    // Twice at most: a concurrent sign-up may create the account between the look-up and the insert.
    for (let tries = 0; tries < 2; tries++) {
      const holder = await addressHolder(
        { accounts: this.deps.accountsRepo, members: this.deps.members },
        address,
      );
      // An invited member's address is taken as an account's is (address-holder.ts): the member is
      // told, as an owner would be, and nothing changes.
      if (holder?.member && (await this.tellMember(holder.member, now))) return;
      const existing = holder?.account;
      // An account with a password (signed up before sign-up links carried it, or made by the operator
      // with an unverified address) or a proven address is never offered a link that would replace
      // its password: its owner gets the note, which points to log-in and reset (a reset proves the
      // address, sets the owner's password and ends everything else).
      if (existing && !isUnclaimedSignup(existing)) {
        await this.deps.signupsRepo.recordAttempt({
          id: newId(),
          account_id: existing.id,
          kind: 'signup_attempt',
          message:
            'Someone tried to sign up with your address; nothing changed. If it was not you, there is nothing to do.',
          data: '{}',
          created_at: now,
        });
        await this.deps.mail.send(
          existing,
          signupAttemptMail(
            { login: this.page('/login'), forgotPassword: this.page('/forgot-password') },
            at,
          ),
        );
        return;
      }
      const { token, row } = this.link(existing?.id ?? newId(), passwordHash, now);
      let account = existing;
      if (account) {
        // Unverified and no password: nobody has proven the inbox yet, so this link is as good as any.
        await this.deps.signupsRepo.replaceLink(row);
      } else {
        account = pendingAccount(row.account_id, address, now);
        if (!(await this.deps.signupsRepo.createAccountWithLink(account, row))) continue;
      }
      await this.deps.mail.send(account, verificationMail(this.page('/verify-email', token), at));
      return;
    }
    throw new Error('sign-up: the address kept changing under the look-up');
  }

  /**
   * Someone signed up with an invited member's address: the work of a taken address (a notice in one
   * transaction of two statements, one mail), the mail to the member, the notice to its account. False
   * when the member's account is gone meanwhile (the address is free again).
   */
  private async tellMember(member: MemberRow, now: number): Promise<boolean> {
    const account = await this.deps.accountsRepo.findById(member.account_id);
    if (!account) return false;
    await this.deps.signupsRepo.recordAttempt({
      id: newId(),
      account_id: account.id,
      // Its own kind: it replaces only the older notice of its kind, never the owner's own.
      kind: 'member_signup_attempt',
      message: `Someone tried to sign up for an account of its own with the address of your member ${member.email}; nothing changed.`,
      data: '{}',
      created_at: now,
    });
    await this.deps.mail.send(
      account,
      memberSignupAttemptMail(
        { login: this.page('/login'), forgotPassword: this.page('/forgot-password') },
        new Date(now),
      ),
      member.email,
    );
    return true;
  }

  /**
   * Uses a sign-up link and logs its browser in: the account takes that sign-up's password and its
   * address is verified, only while it is unverified and has no password (another link, a reset or the
   * operator came first: then the link is refused and nothing changes).
   */
  async verify(token: string, origin?: SessionOrigin): Promise<ActiveSession> {
    const now = this.deps.clock.now();
    const used = await this.deps.sessionsRepo.useToken(hashSecret(token), 'verify_email', now);
    // A link without a password was mailed to a logged-in account before such requests mailed a link
    // that asks for the password (dashboard-auth.ts): it is refused, and a new one can be asked for.
    if (!used || used.password_hash === null) throw invalidLink();
    if (!(await this.deps.signupsRepo.completeSignup(used.account_id, used.password_hash, now))) {
      throw invalidLink();
    }
    const account = await this.deps.accountsRepo.findById(used.account_id);
    if (!account) throw invalidLink();
    return this.deps.sessions.create(account, undefined, origin);
  }

  private link(accountId: string, passwordHash: string, now: number) {
    const token = randomBytes(32).toString('base64url');
    const row: AccountTokenRow = {
      token_hash: hashSecret(token),
      account_id: accountId,
      purpose: 'verify_email',
      created_at: now,
      expires_at: now + SIGNUP_LINK_TTL_MS,
      used_at: null,
      password_hash: passwordHash,
      member_id: null,
    };
    return { token, row };
  }

  private page(path: string, token?: string): string {
    const base = `${this.settings.publicUrl.replace(/\/+$/, '')}${path}`;
    return token === undefined ? base : `${base}?token=${token}`;
  }
}

/** A new address's account until its link is used: unverified, no password, so no way in. */
export function pendingAccount(id: string, email: string, now: number): Account {
  return {
    id,
    email,
    password_hash: null,
    plan: 'free',
    state: 'sandbox',
    suspended_at: null,
    require_totp_at: null,
    created_at: now,
    email_verified_at: null,
    reputation_status: 'healthy',
    reputation_reason: null,
    reputation_changed_at: null,
    content_retention_days: DEFAULT_CONTENT_RETENTION_DAYS,
  };
}

function invalidLink(): AppError {
  return new AppError(
    'invalid_token',
    'this verification link is unknown, used already or expired; if you finished signing up, log in with your password, or sign up again for a new link',
  );
}
