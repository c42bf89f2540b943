// Two-factor sign-in (docs/design.md §2, "Two-factor sign-in"): TOTP (totp.ts) with ten single-use
// recovery codes. The secret is sealed at rest (crypto/secret-box.ts), the recovery codes stored only
// as SHA-256 hashes and shown once. A code is accepted one step either side of now and never twice
// (members-repo.ts claimTotpStep). Code attempts are counted per member like log-ins: 10 failures per
// 15 minutes (login-limits.ts), whoever makes them.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { AttemptCountsRepo } from '../db/attempt-counts-repo.js';
import type { MembersRepo } from '../db/members-repo.js';
import type { Account, MemberRow } from '../db/schema.js';
import { AppError } from '../errors.js';
import { AttemptLimiter } from './attempt-limiter.js';
import { LOGIN_WINDOW_MS } from './login-limits.js';
import { hashSecret, type Sessions } from './sessions.js';
import { base32Encode, matchTotp, newTotpSecret, otpauthUrl } from './totp.js';

export const RECOVERY_CODES = 10;
/** Failed codes per member per 15 minutes. */
export const CODE_ATTEMPTS = 10;

/** `xxxxx-xxxxx` in lowercase base32: 50 random bits each. */
function newRecoveryCode(): string {
  const s = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

function recoveryHash(code: string): string {
  return hashSecret(code.trim().toLowerCase().replace(/[\s-]/g, ''));
}

export class TwoFactor {
  private readonly attempts: AttemptLimiter;

  constructor(
    private readonly deps: {
      members: MembersRepo;
      box: SecretBox;
      attempts: AttemptCountsRepo;
      clock: Clock;
      /** Ends the member's other sessions once the second factor is on. */
      sessions: Pick<Sessions, 'revokeMember'>;
    },
  ) {
    this.attempts = new AttemptLimiter(deps.attempts, 'totp-member', CODE_ATTEMPTS, LOGIN_WINDOW_MS);
  }

  /** A new secret for the member to add to an app; two-factor sign-in is on once a code confirms it. */
  async setup(member: MemberRow): Promise<{ secret: string; otpauth_url: string }> {
    if (member.totp_enabled_at !== null) {
      throw new AppError('validation_error', 'two-factor sign-in is already on for this member');
    }
    const secret = newTotpSecret();
    await this.deps.members.setPendingTotp(member.id, this.deps.box.seal(secret));
    return { secret, otpauth_url: otpauthUrl(secret, member.email) };
  }

  /**
   * Confirms the pending secret with a code from the app; answers the recovery codes, shown this once.
   * The member's other sessions end (`keepSession`, the id hash of the one confirming, stays): a
   * session stolen before, with the password or without, must not outlive the second factor meant to
   * keep its thief out. They end after the factor is on, so a session a password alone opened meanwhile
   * ends too.
   */
  async confirm(member: MemberRow, code: string, keepSession: string): Promise<string[]> {
    const fresh = await this.deps.members.byId(member.id);
    if (!fresh?.totp_pending_secret) {
      throw new AppError('validation_error', 'start with POST /api/auth/totp/setup');
    }
    const now = this.deps.clock.now();
    await this.take(member.id, now);
    const step = matchTotp(this.deps.box.open(fresh.totp_pending_secret), code.trim(), now);
    if (step === undefined) throw wrongCode();
    await this.attempts.reset(member.id);
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await this.deps.members.enableTotp(
      member.id,
      fresh.totp_pending_secret,
      step,
      now,
      codes.map(recoveryHash),
    );
    await this.deps.sessions.revokeMember(member, keepSession);
    return codes;
  }

  /**
   * Checks a log-in's second factor: a TOTP code (six digits) not used before, or an unused recovery
   * code, which is then spent. Refused with `invalid_code`, or `rate_limit_exceeded` past the limit.
   */
  async verify(member: MemberRow, code: string): Promise<void> {
    const now = this.deps.clock.now();
    await this.take(member.id, now);
    const trimmed = code.trim();
    let ok = false;
    if (/^\d{6}$/.test(trimmed)) {
      const step = member.totp_secret && matchTotp(this.deps.box.open(member.totp_secret), trimmed, now);
      ok = typeof step === 'number' && (await this.deps.members.claimTotpStep(member.id, step));
    } else {
      ok = await this.deps.members.useRecoveryCode(member.id, recoveryHash(trimmed), now);
    }
    if (!ok) throw wrongCode();
    await this.attempts.reset(member.id);
  }

  /**
   * Turns two-factor sign-in off, proven by a code (or a recovery code) like a log-in; refused while the
   * account requires it.
   */
  async disable(member: MemberRow, account: Account, code: string): Promise<void> {
    if (member.totp_enabled_at === null) {
      throw new AppError('validation_error', 'two-factor sign-in is not on for this member');
    }
    if (account.require_totp_at !== null) {
      throw new AppError(
        'validation_error',
        'the account requires two-factor sign-in; the owner can lift that',
      );
    }
    const fresh = await this.deps.members.byId(member.id);
    await this.verify(fresh ?? member, code);
    await this.deps.members.disableTotp(member.id);
  }

  private async take(memberId: string, now: number): Promise<void> {
    const d = await this.attempts.take([memberId], now);
    if (!d.allowed) {
      throw new AppError(
        'rate_limit_exceeded',
        `too many wrong codes; try again in ${Math.ceil(d.retryAfterSeconds / 60)} minutes`,
        { 'Retry-After': String(d.retryAfterSeconds) },
      );
    }
  }
}

function wrongCode(): AppError {
  return new AppError('invalid_code', 'the code is wrong, expired or used already');
}
