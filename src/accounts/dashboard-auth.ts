// What the dashboard's sign-in pages do: sign up and verify the address (signup.ts), log in
// (rate-limited per network and address, or per remembered browser; one generic error), reset and
// change the password. Sessions themselves are in sessions.ts, remembered browsers in login-devices.ts.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { AttemptCountsRepo } from '../db/attempt-counts-repo.js';
import { ownerMemberId, type MembersRepo } from '../db/members-repo.js';
import type { SessionsRepo } from '../db/sessions-repo.js';
import type { SignupsRepo } from '../db/signups-repo.js';
import type { Account, MemberRow } from '../db/schema.js';
import type { DeferredWork } from '../deferred-work.js';
import { AppError } from '../errors.js';
import type { AccountMail } from './account-mail.js';
import { addressProofMail, passwordResetMail } from './account-mail-content.js';
import { accountAddress } from './accounts.js';
import { clientNetwork } from '../client-network.js';
import type { LoginDevices, RememberedDevice } from './login-devices.js';
import { LoginLimits } from './login-limits.js';
import { checkNewPassword, verifyPassword, type PasswordHasher } from './passwords.js';
import { hashSecret, type ActiveSession, type SessionOrigin, type Sessions } from './sessions.js';
import type { MailRequestLimits, Signup } from './signup.js';
import type { TwoFactor } from './two-factor.js';

const RESET_TTL_MS = 3600_000;

export interface DashboardAuthSettings {
  /** Base of the links in mail, TXMAIL_PUBLIC_URL. */
  publicUrl: string;
}

/**
 * A browser that just signed in: its session, and the device cookie that remembers it for log-ins (the
 * owner's only: a device is bound to the account's address, and one given to an invited member would
 * let it guess the owner's password on a device's budget, outside the per-address ceiling).
 */
export interface SignedIn {
  session: ActiveSession;
  device?: RememberedDevice;
}

export class DashboardAuth {
  private readonly logins: LoginLimits;
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly settings: DashboardAuthSettings,
    private readonly deps: {
      accountsRepo: AccountsRepo;
      signupsRepo: SignupsRepo;
      sessionsRepo: SessionsRepo;
      sessions: Sessions;
      signup: Signup;
      devices: LoginDevices;
      mail: AccountMail;
      /** Shared with sign-up: one count per client network and one per address, whichever page. */
      limits: MailRequestLimits;
      /** Where failed log-ins are counted: the database, shared by every API process. */
      attempts: AttemptCountsRepo;
      /** What a reset request does after it is answered. */
      deferred: DeferredWork;
      clock: Clock;
      passwords: PasswordHasher;
      /** Invited members sign in here too (members.ts), with their second factor (two-factor.ts). */
      members: MembersRepo;
      twoFactor: TwoFactor;
    },
  ) {
    this.logins = new LoginLimits(deps.attempts);
  }

  get signupOpen(): boolean {
    return this.deps.signup.open;
  }

  /** The same outcome whether or not the address has an account: see signup.ts. */
  signup(email: string, password: string, ip: string): Promise<void> {
    return this.deps.signup.start(email, password, ip);
  }

  /** Uses the emailed sign-up link, starts the browser's session and remembers the browser. */
  async verifyEmail(token: string, origin?: SessionOrigin): Promise<SignedIn> {
    const session = await this.deps.signup.verify(token, origin);
    const device = await this.deps.devices.remember(session.account.id, undefined, this.deps.clock.now());
    return { session, device };
  }

  /**
   * Mails a logged-in account whose address is not verified a link that proves it. Such an account has
   * a password nobody proved (it signed up before sign-up links carried the password, or the operator
   * made it unverified), and whoever set it may be the one asking: so the link is a reset link, whose
   * owner chooses the password, and whose first use ends everything made before (sessions, API keys,
   * remembered browsers), like every first proof of an address.
   */
  async sendVerification(account: Account): Promise<void> {
    if (account.email_verified_at !== null) return;
    const d = await this.deps.limits.perAddress.take([account.email], this.deps.clock.now());
    if (!d.allowed) {
      throw new AppError(
        'rate_limit_exceeded',
        `too many links mailed to this address; try again in ${Math.ceil(d.retryAfterSeconds / 60)} minutes`,
        { 'Retry-After': String(d.retryAfterSeconds) },
      );
    }
    const token = await this.issueResetToken(account.id, this.deps.clock.now());
    await this.deps.mail.send(account, addressProofMail(this.link('/reset-password', token)));
  }

  /**
   * A session, or one generic `invalid_credentials` whether the address exists or not. `from`: the
   * client's address (counted by the limits) and User-Agent, kept with the session. `deviceId` is the
   * browser's device cookie: when it names a browser that logged in to this address before, the
   * attempt is counted for that browser alone (login-limits.ts).
   */
  async login(
    email: string,
    password: string,
    from: SessionOrigin,
    deviceId?: string,
    code?: string,
  ): Promise<SignedIn> {
    const { ip } = from;
    const now = this.deps.clock.now();
    const address = email.trim().toLowerCase();
    const device = await this.deps.devices.recognise(deviceId, address, now);
    // Counted as a failure before the password is checked, given back if it was right: concurrent
    // guesses, in this process or others, never get more than the limits between them.
    const d = await this.logins.take(ip, address, now, device);
    if (!d.allowed) {
      throw new AppError(
        'rate_limit_exceeded',
        `too many failed log-in attempts; try again in ${Math.ceil(d.retryAfterSeconds / 60)} minutes or reset your password`,
        { 'Retry-After': String(d.retryAfterSeconds) },
      );
    }
    const { account, member, passwordHash } = await this.whoIs(address);
    // Hash even when there is no such account (or a sign-up not finished: no password yet), so the
    // answer takes as long either way.
    const ok = passwordHash
      ? await this.deps.passwords.verify(password, passwordHash)
      : (await verifyPassword(password, await this.dummy()), false);
    if (!account || !ok) throw new AppError('invalid_credentials', 'the email or the password is wrong');
    await this.logins.succeeded(ip, address, now, device);
    const signedIn = member ?? (await this.deps.members.ensureOwner(account));
    // The second factor, counted per member (two-factor.ts): the password alone starts no session.
    if (signedIn.totp_enabled_at !== null) {
      if (code === undefined || code.trim() === '') {
        throw new AppError(
          'totp_required',
          'enter the code from your authenticator app (or a recovery code)',
        );
      }
      await this.deps.twoFactor.verify(signedIn, code);
    }
    // A password stored at another cost than today's is stored again, after the answer and apart from
    // it: the hash costs no time of this log-in, and a failed write (logged) fails nothing.
    if (this.deps.passwords.isOutdated(passwordHash!)) {
      const stored = passwordHash!;
      this.deps.deferred.defer(async () => {
        const rehashed = await this.deps.passwords.hash(password);
        if (member) await this.deps.members.setPassword(member.id, rehashed, stored);
        else await this.deps.accountsRepo.setPassword(account.id, rehashed, stored);
      });
    }
    const session = await this.deps.sessions.create(account, signedIn, from);
    if (signedIn.role !== 'owner') return { session };
    const remembered = await this.deps.devices.remember(
      account.id,
      device === undefined ? undefined : deviceId,
      now,
    );
    return { session, device: remembered };
  }

  /**
   * Always succeeds from the caller's view: whether the address has an account is not revealed, by the
   * answer or by its timing. What is taken before the answer is the same for every address (the
   * client's count, the address's count); the look-up, the link and the mail run after it
   * (DeferredWork), so an address with an account is not answered later than one without.
   */
  async requestPasswordReset(email: string, ip: string): Promise<void> {
    const now = this.deps.clock.now();
    const fromClient = await this.deps.limits.perClient.take([clientNetwork(ip)], now);
    if (!fromClient.allowed) {
      throw new AppError(
        'rate_limit_exceeded',
        `too many requests from your address; try again in ${Math.ceil(fromClient.retryAfterSeconds / 60)} minutes`,
        { 'Retry-After': String(fromClient.retryAfterSeconds) },
      );
    }
    // Not an address: no account has it (accounts are stored by accountAddress).
    const address = addressOrUndefined(email);
    if (address === undefined) return;
    // Per address the answer stays the same (202) so it reveals nothing; the mail is just not sent.
    if (!(await this.deps.limits.perAddress.take([address], now)).allowed) return;
    this.deps.deferred.defer(() => this.mailResetLink(address, now));
  }

  /**
   * Sets the new password of the link's member (the owner's, or an invited member's own) and logs that
   * member out everywhere; the owner's browsers are forgotten. Nobody else's sessions end: their
   * passwords are their own. Answers whose password it was, for the audit log: the account, and the
   * member's id and address.
   */
  async resetPassword(
    token: string,
    password: string,
  ): Promise<{ accountId: string; member: { id: string; email: string } }> {
    checkNewPassword(password);
    const used = await this.deps.sessionsRepo.useToken(
      hashSecret(token),
      'reset_password',
      this.deps.clock.now(),
    );
    if (!used) {
      throw new AppError(
        'invalid_token',
        'this password reset link is unknown, used already or expired; ask for a new one',
      );
    }
    const now = this.deps.clock.now();
    const hash = await this.deps.passwords.hash(password);
    if (used.member_id !== null) {
      // An invited member's link came to the member's own inbox: it proves nothing of the account's.
      const member = await this.deps.members.byId(used.member_id);
      if (!member || member.account_id !== used.account_id || member.accepted_at === null) {
        throw new AppError(
          'invalid_token',
          'this password reset link is unknown, used already or expired; ask for a new one',
        );
      }
      await this.deps.members.setPassword(member.id, hash);
      await this.deps.sessions.revokeMember(member);
      return { accountId: used.account_id, member: { id: member.id, email: member.email } };
    }
    // The reset link came to the signup inbox: it proves the address as a sign-up link does, and, the
    // first time, ends whatever came before (sessions, API keys, browsers; signups-repo.ts).
    if (!(await this.deps.signupsRepo.completeByReset(used.account_id, hash, now))) {
      await this.deps.accountsRepo.setPassword(used.account_id, hash);
      // The owner's sessions and browsers: the invited members' own passwords did not change.
      await this.deps.sessions.revokeMember({
        id: ownerMemberId(used.account_id),
        account_id: used.account_id,
      });
      await this.deps.devices.forgetAll(used.account_id);
    }
    const owner = await this.deps.accountsRepo.findById(used.account_id);
    return {
      accountId: used.account_id,
      member: { id: ownerMemberId(used.account_id), email: owner?.email ?? '' },
    };
  }

  /**
   * Changes the password of the logged-in member; its other sessions are logged out and, the owner's,
   * every other browser forgotten (they proved the old password). This browser, which just proved the
   * current one, is remembered anew.
   */
  async changePassword(
    session: ActiveSession,
    current: string,
    next: string,
  ): Promise<RememberedDevice | undefined> {
    checkNewPassword(next);
    const invited = session.member.role !== 'owner';
    const hash = invited ? session.member.password_hash : session.account.password_hash;
    if (!hash || !(await verifyPassword(current, hash))) {
      throw new AppError('invalid_credentials', 'the current password is wrong');
    }
    const accountId = session.account.id;
    if (invited) await this.deps.members.setPassword(session.member.id, await this.deps.passwords.hash(next));
    else await this.deps.accountsRepo.setPassword(accountId, await this.deps.passwords.hash(next));
    // This member's other sessions end, nobody else's: a member's password is its own.
    await this.deps.sessions.revokeMember(session.member, session.idHash);
    // Remembered browsers are the owner's alone (login-devices.ts).
    if (invited) return undefined;
    await this.deps.devices.forgetAll(accountId);
    return this.deps.devices.remember(accountId, undefined, this.deps.clock.now());
  }

  /**
   * Who signs in with `address`: the account whose signup address it is (its owner), else an invited
   * member who accepted the invitation, with the password hash to check.
   */
  private async whoIs(
    address: string,
  ): Promise<{ account?: Account; member?: MemberRow; passwordHash?: string | null }> {
    // No stored address holds NUL, and PostgreSQL refuses it in a query: nobody to find.
    if (address.includes('\0')) return {};
    const account = await this.deps.accountsRepo.findByEmail(address);
    if (account) return { account, passwordHash: account.password_hash };
    const member = await this.deps.members.findInvitedByEmail(address);
    if (!member || member.accepted_at === null) return {};
    const owner = await this.deps.accountsRepo.findById(member.account_id);
    return owner ? { account: owner, member, passwordHash: member.password_hash } : {};
  }

  /**
   * After the answer to a reset request made at `now`: the link, if the address signs in (an account's
   * owner, or an invited member who accepted: whoever log-in would find), to that address. A member's
   * link is queued as its account's mail, sealed in the log like every sign-in link (system-mail.ts).
   */
  private async mailResetLink(address: string, now: number): Promise<void> {
    const { account, member } = await this.whoIs(address);
    if (!account) return;
    const token = await this.issueResetToken(account.id, now, member?.id ?? null);
    await this.deps.mail.send(account, passwordResetMail(this.link('/reset-password', token)), member?.email);
  }

  /**
   * A new reset link of the account's owner (`memberId` null) or of one invited member, valid for an
   * hour from `now`; that member's older ones stop working, nobody else's.
   */
  private async issueResetToken(
    accountId: string,
    now: number,
    memberId: string | null = null,
  ): Promise<string> {
    await this.deps.sessionsRepo.expireTokens(accountId, memberId, 'reset_password', now);
    const token = randomBytes(32).toString('base64url');
    await this.deps.sessionsRepo.createToken({
      token_hash: hashSecret(token),
      account_id: accountId,
      purpose: 'reset_password',
      created_at: now,
      expires_at: now + RESET_TTL_MS,
      used_at: null,
      password_hash: null,
      member_id: memberId,
    });
    return token;
  }

  private link(path: string, token: string): string {
    return `${this.settings.publicUrl.replace(/\/+$/, '')}${path}?token=${token}`;
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= this.deps.passwords.hash(randomBytes(16).toString('hex'));
    return this.dummyHash;
  }
}

/** The address as accounts store it, or undefined when the input is not one. */
function addressOrUndefined(input: string): string | undefined {
  try {
    return accountAddress(input);
  } catch {
    return undefined;
  }
}
