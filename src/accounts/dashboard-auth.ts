// What the dashboard's sign-in pages do: sign up and verify the address (signup.ts), log in
// (rate-limited per network and address, one generic error), reset and change the password. Sessions
// themselves are in sessions.ts.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { AttemptCountsRepo } from '../db/attempt-counts-repo.js';
import type { SessionsRepo } from '../db/sessions-repo.js';
import type { SignupsRepo } from '../db/signups-repo.js';
import type { Account } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { AccountMail } from './account-mail.js';
import { passwordResetMail } from './account-mail-content.js';
import { AttemptLimiter } from './attempt-limiter.js';
import { clientNetwork } from '../client-network.js';
import { LoginLimits } from './login-limits.js';
import { checkNewPassword, hashPassword, verifyPassword } from './passwords.js';
import { hashSecret, type ActiveSession, type Sessions } from './sessions.js';
import {
  MAILS_PER_ADDRESS_PER_HOUR,
  Signup,
  SIGNUPS_PER_IP_PER_HOUR,
  type SignupSettings,
} from './signup.js';

const RESET_TTL_MS = 3600_000;

export type DashboardAuthSettings = SignupSettings;

export class DashboardAuth {
  private readonly signups: Signup;
  private readonly logins: LoginLimits;
  /**
   * Mail a stranger can make txmail send to an address (sign-up, new verification link, reset link):
   * enough for a person, useless for flooding someone's inbox or spending the test domain's reputation.
   */
  private readonly mailRequests: AttemptLimiter;
  /** Sign-ups and reset requests per client network and hour. */
  private readonly perIp: AttemptLimiter;
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly settings: DashboardAuthSettings,
    private readonly deps: {
      accountsRepo: AccountsRepo;
      signupsRepo: SignupsRepo;
      sessionsRepo: SessionsRepo;
      sessions: Sessions;
      mail: AccountMail;
      /** Where attempts are counted: the database, shared by every API process. */
      attempts: AttemptCountsRepo;
      clock: Clock;
    },
  ) {
    this.signups = new Signup(settings, deps);
    this.logins = new LoginLimits(deps.attempts);
    this.mailRequests = new AttemptLimiter(deps.attempts, 'mail', MAILS_PER_ADDRESS_PER_HOUR, 3600_000);
    this.perIp = new AttemptLimiter(deps.attempts, 'ip', SIGNUPS_PER_IP_PER_HOUR, 3600_000);
  }

  get signupOpen(): boolean {
    return this.signups.open;
  }

  /** The same outcome whether or not the address has an account: see signup.ts. */
  signup(email: string, password: string, ip: string): Promise<void> {
    return this.signups.start(email, password, ip);
  }

  /** Mails a logged-in, unverified account a new link. */
  sendVerification(account: Account): Promise<void> {
    return this.signups.resend(account);
  }

  /** Uses the emailed link and starts the browser's session. */
  verifyEmail(token: string): Promise<ActiveSession> {
    return this.signups.verify(token);
  }

  /** A session, or one generic `invalid_credentials` whether the address exists or not. */
  async login(email: string, password: string, ip: string): Promise<ActiveSession> {
    const now = this.deps.clock.now();
    // Counted as a failure before the password is checked, given back if it was right: concurrent
    // guesses, in this process or others, never get more than the limits between them.
    const d = await this.logins.take(ip, email, now);
    if (!d.allowed) {
      throw new AppError(
        'rate_limit_exceeded',
        `too many failed log-in attempts; try again in ${Math.ceil(d.retryAfterSeconds / 60)} minutes or reset your password`,
        { 'Retry-After': String(d.retryAfterSeconds) },
      );
    }
    const account = await this.deps.accountsRepo.findByEmail(email.trim());
    // Hash even when there is no such account (or a sign-up not finished: no password yet), so the
    // answer takes as long either way.
    const ok = account?.password_hash
      ? await verifyPassword(password, account.password_hash)
      : (await verifyPassword(password, await this.dummy()), false);
    if (!account || !ok) throw new AppError('invalid_credentials', 'the email or the password is wrong');
    await this.logins.succeeded(ip, email, now);
    return this.deps.sessions.create(account);
  }

  /** Always succeeds from the caller's view: whether the address has an account is not revealed. */
  async requestPasswordReset(email: string, ip: string): Promise<void> {
    const now = this.deps.clock.now();
    const key = email.trim().toLowerCase();
    await this.take(this.perIp, `ip:${clientNetwork(ip)}`, 'too many requests from your address');
    // Per address the answer stays the same (202) so it reveals nothing; the mail is just not sent.
    if (!(await this.mailRequests.take([`reset:${key}`], now)).allowed) return;
    const account = await this.deps.accountsRepo.findByEmail(key);
    if (!account) return;
    const token = await this.issueResetToken(account.id);
    await this.deps.mail.send(account, passwordResetMail(this.link('/reset-password', token)));
  }

  /** Sets the new password and logs the account out everywhere. */
  async resetPassword(token: string, password: string): Promise<void> {
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
    const hash = await hashPassword(password);
    // The reset link came to the signup inbox: it proves the address as a sign-up link does, and, the
    // first time, closes whatever the unproven password before it could open (sessions, API keys).
    if (!(await this.deps.signupsRepo.complete(used.account_id, hash, now))) {
      await this.deps.accountsRepo.setPassword(used.account_id, hash);
      await this.deps.sessions.revokeAll(used.account_id);
    }
  }

  /** Changes the password of a logged-in account; every other session is logged out. */
  async changePassword(session: ActiveSession, current: string, next: string): Promise<void> {
    checkNewPassword(next);
    const hash = session.account.password_hash;
    if (!hash || !(await verifyPassword(current, hash))) {
      throw new AppError('invalid_credentials', 'the current password is wrong');
    }
    await this.deps.accountsRepo.setPassword(session.account.id, await hashPassword(next));
    await this.deps.sessions.revokeAll(session.account.id, session.idHash);
  }

  /** Counts one attempt against `key`, or refuses with 429 when its window is full. */
  private async take(limiter: AttemptLimiter, key: string, what: string): Promise<void> {
    const d = await limiter.take([key], this.deps.clock.now());
    if (!d.allowed) {
      throw new AppError(
        'rate_limit_exceeded',
        `${what}; try again in ${Math.ceil(d.retryAfterSeconds / 60)} minutes`,
        { 'Retry-After': String(d.retryAfterSeconds) },
      );
    }
  }

  /** A new reset link; the older ones stop working. */
  private async issueResetToken(accountId: string): Promise<string> {
    const now = this.deps.clock.now();
    await this.deps.sessionsRepo.expireTokens(accountId, 'reset_password', now);
    const token = randomBytes(32).toString('base64url');
    await this.deps.sessionsRepo.createToken({
      token_hash: hashSecret(token),
      account_id: accountId,
      purpose: 'reset_password',
      created_at: now,
      expires_at: now + RESET_TTL_MS,
      used_at: null,
      password_hash: null,
    });
    return token;
  }

  private link(path: string, token: string): string {
    return `${this.settings.publicUrl.replace(/\/+$/, '')}${path}?token=${token}`;
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    return this.dummyHash;
  }
}
