// Mail to a dashboard user (verification link, password reset, the guided test), from
// onboarding@<TXMAIL_TEST_DOMAIN>: system mail (messages/system-mail.ts) behind the small interface the
// dashboard's services take.
import type { Account } from '../db/schema.js';
import type { SystemMail } from '../messages/system-mail.js';

export interface AccountMailContent {
  subject: string;
  html: string;
  /** Carries a link that signs its reader in: kept out of the account's log (system-mail.ts). */
  sealed?: boolean;
}

export interface AccountMail {
  /** The sender address, `onboarding@<test domain>`. */
  readonly from: string;
  /** Queues a message to `to` (default: the account's signup address); resolves to its id once committed. */
  send(account: Account, content: AccountMailContent, to?: string): Promise<string>;
}

export class QueuedAccountMail implements AccountMail {
  readonly from: string;

  constructor(private readonly system: SystemMail) {
    this.from = system.address('onboarding');
  }

  send(account: Account, content: AccountMailContent, to?: string): Promise<string> {
    return this.system.queue(account, { sender: 'onboarding', to, ...content });
  }
}
