// Mail to the service's operator (TXMAIL_OPERATOR_EMAIL): notices about the service itself, such as a
// sending address on a blocklist. Every message in txmail belongs to an account (the log, retention,
// the worker's fair share), so the operator's mail is queued as system mail under the account whose
// email is the operator's address, created on first use (production, scale plan, no password: the
// operator can set one with a password reset, or never sign in).
import type { Accounts } from '../accounts/accounts.js';
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { Account } from '../db/schema.js';
import type { SystemMail } from './system-mail.js';

export class OperatorMail {
  constructor(
    private readonly address: string,
    private readonly deps: { accounts: Accounts; repo: AccountsRepo; systemMail: SystemMail },
  ) {}

  /** Queues a notice from notifications@<test domain>; resolves to the message id once committed. */
  async send(subject: string, html: string): Promise<string> {
    const account = await this.account();
    return this.deps.systemMail.queue(account, { sender: 'notifications', to: this.address, subject, html });
  }

  private async account(): Promise<Account> {
    const existing = await this.deps.repo.findByEmail(this.address);
    if (existing && existing.email_verified_at !== null) return existing;
    let account: Account;
    try {
      // Also takes over a sign-up nobody finished for this address (accounts.ts claim).
      account = await this.deps.accounts.create({ email: this.address, plan: 'scale' });
    } catch (err) {
      // Another process created it meanwhile.
      const raced = await this.deps.repo.findByEmail(this.address);
      if (!raced) throw err;
      return raced;
    }
    // The operator's own account is no trial: it is created as the operator would make it by hand.
    await this.deps.repo.setState(account.id, 'production');
    return { ...account, state: 'production' };
  }
}
