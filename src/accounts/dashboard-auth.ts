// What the dashboard's sign-in pages do: sign up, verify the signup address, log in (rate-limited, one
// generic error), reset and change the password. Sessions themselves are in sessions.ts.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { AttemptCountsRepo } from '../db/attempt-counts-repo.js';
import type { SessionsRepo } from '../db/sessions-repo.js';
import type { Account, AccountTokenPurpose } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { AccountMail } from './account-mail.js';
import { passwordResetMail, verificationMail } from './account-mail-content.js';
import type { Accounts } from './accounts.js';
import { AttemptLimiter } from './attempt-limiter.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { hashSecret, type ActiveSession, type Sessions } from './sessions.js';

const VERIFY_TTL_MS = 48 * 3600_000;
const RESET_TTL_MS = 3600_000;
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_MS = 15 * 60_000;

export interface DashboardAuthSettings {
  signup: 'open' | 'closed';
  /** Base of the links in mail, TXMAIL_PUBLIC_URL. */
  publicUrl: string;
}

export class DashboardAuth {
  private readonly failures: AttemptLimiter;
  /**
   * Mail a stranger can make txmail send to an address (sign-up, new verification link, reset link):
   * enough for a person, useless for flooding someone's inbox or spending the test domain's reputation.
   */
  private readonly mailRequests: AttemptLimiter;
  /** Sign-ups and reset requests per IP address and hour. */
  private readonly perIp: AttemptLimiter;
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly settings: DashboardAuthSettings,
    private readonly deps: {
      accounts: Accounts;
      accountsRepo: AccountsRepo;
      sessionsRepo: SessionsRepo;
      sessions: Sessions;
      mail: AccountMail;
      /** Where attempts are counted: the database, shared by every API process. */
      attempts: AttemptCountsRepo;
      clock: Clock;
    },
  ) {
    this.failures = new AttemptLimiter(deps.attempts, 'login', LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS);
    this.mailRequests = new AttemptLimiter(deps.attempts, 'mail', 5, 3600_000);
    this.perIp = new AttemptLimiter(deps.attempts, 'ip', 20, 3600_000);
  }

  get signupOpen(): boolean {
    return this.settings.signup === 'open';
  }

  async signup(email: string, password: string, ip: string): Promise<ActiveSession> {
    if (!this.signupOpen) {
      throw new AppError(
        'signup_closed',
        'sign-up is closed on this server; ask its operator for an account',
      );
    }
    checkPassword(password);
    await this.take(this.perIp, `ip:${ip}`, 'too many sign-ups from your address');
    const account = await this.deps.accounts.create({ email, password, plan: 'free', emailVerified: false });
    await this.sendVerification(account);
    return this.deps.sessions.create(account);
  }

  async sendVerification(account: Account): Promise<void> {
    if (account.email_verified_at !== null) return;
    await this.take(this.mailRequests, `verify:${account.id}`, 'too many verification links asked for');
    const token = await this.issueToken(account.id, 'verify_email', VERIFY_TTL_MS);
    await this.deps.mail.send(account, verificationMail(this.link('/verify-email', token)));
  }

  async verifyEmail(token: string): Promise<void> {
    const used = await this.useToken(token, 'verify_email');
    await this.deps.accountsRepo.markEmailVerified(used.account_id, this.deps.clock.now());
  }

  /** A session, or one generic `invalid_credentials` whether the address exists or not. */
  async login(email: string, password: string, ip: string): Promise<ActiveSession> {
    const now = this.deps.clock.now();
    const emailKey = `email:${email.trim().toLowerCase()}`;
    const ipKey = `ip:${ip}`;
    // Counted as a failure before the password is checked, given back if it was right: concurrent
    // guesses, in this process or others, never get more than the limit between them.
    const d = await this.failures.take([ipKey, emailKey], now);
    if (!d.allowed) {
      throw new AppError(
        'rate_limit_exceeded',
        `too many failed log-in attempts; try again in ${Math.ceil(d.retryAfterSeconds / 60)} minutes or reset your password`,
        { 'Retry-After': String(d.retryAfterSeconds) },
      );
    }
    const account = await this.deps.accountsRepo.findByEmail(email.trim());
    // Hash even when there is no such account, so the answer takes as long either way.
    const ok = account?.password_hash
      ? await verifyPassword(password, account.password_hash)
      : (await verifyPassword(password, await this.dummy()), false);
    if (!account || !ok) throw new AppError('invalid_credentials', 'the email or the password is wrong');
    await this.failures.reset(emailKey);
    await this.failures.refund(ipKey, now);
    return this.deps.sessions.create(account);
  }

  /** Always succeeds from the caller's view: whether the address has an account is not revealed. */
  async requestPasswordReset(email: string, ip: string): Promise<void> {
    const now = this.deps.clock.now();
    const key = email.trim().toLowerCase();
    await this.take(this.perIp, `ip:${ip}`, 'too many requests from your address');
    // Per address the answer stays the same (202) so it reveals nothing; the mail is just not sent.
    if (!(await this.mailRequests.take([`reset:${key}`], now)).allowed) return;
    const account = await this.deps.accountsRepo.findByEmail(key);
    if (!account) return;
    const token = await this.issueToken(account.id, 'reset_password', RESET_TTL_MS);
    await this.deps.mail.send(account, passwordResetMail(this.link('/reset-password', token)));
  }

  /** Sets the new password and logs the account out everywhere. */
  async resetPassword(token: string, password: string): Promise<void> {
    checkPassword(password);
    const used = await this.useToken(token, 'reset_password');
    const now = this.deps.clock.now();
    await this.deps.accountsRepo.setPassword(used.account_id, await hashPassword(password));
    // The reset link came to the signup inbox: that proves the address as well as the verification link.
    await this.deps.accountsRepo.markEmailVerified(used.account_id, now);
    await this.deps.sessions.revokeAll(used.account_id);
  }

  /** Changes the password of a logged-in account; every other session is logged out. */
  async changePassword(session: ActiveSession, current: string, next: string): Promise<void> {
    checkPassword(next);
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

  private async issueToken(accountId: string, purpose: AccountTokenPurpose, ttlMs: number): Promise<string> {
    const now = this.deps.clock.now();
    // One live link per purpose: asking again makes the older links useless.
    await this.deps.sessionsRepo.expireTokens(accountId, purpose, now);
    const token = randomBytes(32).toString('base64url');
    await this.deps.sessionsRepo.createToken({
      token_hash: hashSecret(token),
      account_id: accountId,
      purpose,
      created_at: now,
      expires_at: now + ttlMs,
      used_at: null,
    });
    return token;
  }

  private async useToken(token: string, purpose: AccountTokenPurpose) {
    const used = await this.deps.sessionsRepo.useToken(hashSecret(token), purpose, this.deps.clock.now());
    if (!used) {
      throw new AppError(
        'invalid_token',
        purpose === 'verify_email'
          ? 'this verification link is unknown, used already or expired; log in to get a new one'
          : 'this password reset link is unknown, used already or expired; ask for a new one',
      );
    }
    return used;
  }

  private link(path: string, token: string): string {
    return `${this.settings.publicUrl.replace(/\/+$/, '')}${path}?token=${token}`;
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
    return this.dummyHash;
  }
}

function checkPassword(password: string): void {
  if (password.length < 10)
    throw new AppError('validation_error', '"password" must be at least 10 characters');
  if (password.length > 1024)
    throw new AppError('validation_error', '"password" must be at most 1024 characters');
}
