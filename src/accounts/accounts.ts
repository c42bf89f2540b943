// Creating accounts and API keys (operator CLI and the dashboard's sign-up).
import type { Clock } from '../clock.js';
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { Account, ApiKeyRow, Plan } from '../db/schema.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { parseAddress } from '../messages/address.js';
import { generateApiKey } from './api-key-format.js';
import { hashPassword } from './passwords.js';

export interface CreatedApiKey {
  record: ApiKeyRow;
  /** The key itself: shown to its owner once, never stored. */
  key: string;
}

export class Accounts {
  constructor(
    private readonly repo: AccountsRepo,
    private readonly clock: Clock,
  ) {}

  /** `emailVerified: false` for self-service sign-up; operator-created accounts are vouched for. */
  async create(input: {
    email: string;
    password?: string;
    plan?: Plan;
    emailVerified?: boolean;
  }): Promise<Account> {
    const parsed = parseAddress(input.email);
    if (!parsed.ok || parsed.address.name !== '') {
      throw new AppError(
        'validation_error',
        `"email" ${parsed.ok ? 'must be a bare address' : parsed.reason}`,
      );
    }
    const email = parsed.address.email.toLowerCase();
    if (await this.repo.findByEmail(email)) {
      throw new AppError('validation_error', `an account with the email ${email} already exists`);
    }
    if (input.password !== undefined && input.password.length < 10) {
      throw new AppError('validation_error', '"password" must be at least 10 characters');
    }
    const account: Account = {
      id: newId(),
      email,
      password_hash: input.password === undefined ? null : await hashPassword(input.password),
      plan: input.plan ?? 'free',
      state: 'sandbox',
      suspended_at: null,
      created_at: this.clock.now(),
      email_verified_at: input.emailVerified === false ? null : this.clock.now(),
    };
    await this.repo.create(account);
    return account;
  }

  async createApiKey(accountId: string, name = 'default'): Promise<CreatedApiKey> {
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
    };
    await this.repo.createApiKey(record);
    return { record, key: generated.key };
  }
}
