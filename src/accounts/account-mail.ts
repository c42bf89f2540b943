// Mail txmail sends to a dashboard user (verification link, password reset, the guided test): queued
// as an ordinary message of that account, from onboarding@<TXMAIL_TEST_DOMAIN> (signed with the
// service's test-domain key), so it is in the log, delivered and retried by the worker like any other.
// It bypasses the send policy (sandbox, verified domain, monthly quota): the user did not send it.
// Kept behind this small interface so it can share one implementation with other system mail later.
import type { Clock } from '../clock.js';
import type { AcceptItem, AcceptOutcome } from '../db/accept-repo.js';
import type { Account } from '../db/schema.js';
import type { GroupCommit } from '../group-commit.js';
import { newId } from '../ids.js';

export interface AccountMailContent {
  subject: string;
  html: string;
}

export interface AccountMail {
  /** The sender address, `onboarding@<test domain>`. */
  readonly from: string;
  /** Queues a message to `to` (default: the account's signup address); resolves to its id once committed. */
  send(account: Account, content: AccountMailContent, to?: string): Promise<string>;
}

export class QueuedAccountMail implements AccountMail {
  readonly from: string;

  constructor(
    private readonly testDomain: string,
    private readonly batcher: GroupCommit<AcceptItem, AcceptOutcome>,
    private readonly clock: Clock,
  ) {
    this.from = `onboarding@${testDomain}`;
  }

  async send(account: Account, content: AccountMailContent, to = account.email): Promise<string> {
    const now = this.clock.now();
    const id = newId();
    const outcome = await this.batcher.submit({
      message: {
        id,
        account_id: account.id,
        status: 'queued',
        from_name: 'txmail',
        from_email: this.from,
        from_domain: this.testDomain,
        to_name: '',
        to_email: to,
        to_domain: to.slice(to.lastIndexOf('@') + 1),
        // Never a header break: the subject is ours, but the guard costs nothing.
        subject: content.subject.replace(/[\r\n\0]+/g, ' '),
        html: content.html,
        created_at: now,
        updated_at: now,
        attempts: 0,
        next_attempt_at: now,
        lease_owner: null,
        lease_expires_at: null,
      },
      event: {
        id: newId(),
        message_id: id,
        account_id: account.id,
        type: 'email.queued',
        created_at: now,
        data: JSON.stringify({ system: true }),
      },
    });
    if (outcome.kind !== 'accepted') throw new Error(`account mail not accepted: ${outcome.kind}`);
    return id;
  }
}
