// Creating accounts and API keys (operator CLI and the dashboard's sign-up).
import type { Clock } from '../clock.js';
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { MembersRepo } from '../db/members-repo.js';
import type { Account, ApiKeyRow, MemberRole, Plan } from '../db/schema.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { parseAddress } from '../messages/address.js';
import { addressHolder } from './address-holder.js';
import { generateApiKey } from './api-key-format.js';
import type { PasswordHasher } from './passwords.js';
import { DEFAULT_CONTENT_RETENTION_DAYS } from './content-retention.js';

export interface CreatedApiKey {
  record: ApiKeyRow;
  /** The key itself: shown to its owner once, never stored. */
  key: string;
}

/** An account a sign-up started and no link has finished: unverified, and no password yet. */
export function isUnclaimedSignup(account: Account): boolean {
  return account.email_verified_at === null && account.password_hash === null;
}

/** The signup address as accounts store it (lower case), or `validation_error` for anything else. */
export function accountAddress(input: string): string {
  const parsed = parseAddress(input);
  if (!parsed.ok || parsed.address.name !== '') {
    throw new AppError('validation_error', `"email" ${parsed.ok ? 'must be a bare address' : parsed.reason}`);
  }
  return parsed.address.email.toLowerCase();
}

export class Accounts {
  constructor(
    private readonly repo: AccountsRepo,
    private readonly clock: Clock,
    /** Invited members' addresses are taken too (address-holder.ts). */
    private readonly members: Pick<MembersRepo, 'findInvitedByEmail'>,
    private readonly passwords: PasswordHasher,
  ) {}

  /**
   * An account made by the operator (`txmail account create`), who vouches for the address unless
   * `emailVerified: false`. The dashboard's sign-up does not come here: see signup.ts.
   */
  async create(input: {
    email: string;
    password?: string;
    plan?: Plan;
    emailVerified?: boolean;
  }): Promise<Account> {
    const email = accountAddress(input.email);
    if (input.password !== undefined && input.password.length < 10) {
      throw new AppError('validation_error', '"password" must be at least 10 characters');
    }
    const holder = await addressHolder({ accounts: this.repo, members: this.members }, email);
    if (holder?.member) throw invitedMember(email);
    const existing = holder?.account;
    if (existing && !isUnclaimedSignup(existing)) {
      throw new AppError('validation_error', `an account with the email ${email} already exists`);
    }
    if (existing) return this.claim(existing, input);
    const account: Account = {
      id: newId(),
      email,
      password_hash: input.password === undefined ? null : await this.passwords.hash(input.password),
      plan: input.plan ?? 'free',
      state: 'sandbox',
      suspended_at: null,
      require_totp_at: null,
      created_at: this.clock.now(),
      email_verified_at: input.emailVerified === false ? null : this.clock.now(),
      reputation_status: 'healthy',
      reputation_reason: null,
      reputation_changed_at: null,
      content_retention_days: DEFAULT_CONTENT_RETENTION_DAYS,
    };
    // Invited between the look-up above and the insert.
    if (!(await this.repo.create(account))) throw invitedMember(email);
    return account;
  }

  /**
   * A sign-up nobody finished (a stranger may start one for any address) must not keep the operator
   * from creating that account: the operator's account takes its place, and its links stop working
   * (they only ever complete an unverified account).
   */
  private async claim(
    pending: Account,
    input: { password?: string; plan?: Plan; emailVerified?: boolean },
  ): Promise<Account> {
    const passwordHash = input.password === undefined ? null : await this.passwords.hash(input.password);
    const plan = input.plan ?? 'free';
    if (passwordHash !== null) await this.repo.setPassword(pending.id, passwordHash);
    await this.repo.setPlan(pending.id, plan);
    const verifiedAt = input.emailVerified === false ? null : this.clock.now();
    if (verifiedAt !== null) await this.repo.markEmailVerified(pending.id, verifiedAt);
    return { ...pending, password_hash: passwordHash, plan, email_verified_at: verifiedAt };
  }

  /**
   * A new key of the account. `maker`: the invited member who makes it, whose role bounds the key
   * (docs/design.md §2); absent for the owner and the operator (full rights).
   */
  async createApiKey(
    accountId: string,
    name = 'default',
    maker?: { memberId: string; role: MemberRole },
  ): Promise<CreatedApiKey> {
    const generated = generateApiKey();
    const record: ApiKeyRow = {
      id: newId(),
      account_id: accountId,
      name,
      prefix: generated.prefix,
      key_hash: generated.hash,
      created_at: this.clock.now(),
      last_used_at: null,
      revoked_at: null,
      member_id: maker?.memberId ?? null,
      role: maker?.role ?? null,
    };
    await this.repo.createApiKey(record);
    return { record, key: generated.key };
  }
}

function invitedMember(email: string): AppError {
  return new AppError(
    'validation_error',
    `${email} is an invited member of another account; an address has an account or a membership, not both`,
  );
}
