// Mail txmail sends to its own customers (e.g. "your webhook endpoint was disabled"): queued under the
// customer's account to its signup address, from notifications@<TXMAIL_TEST_DOMAIN>, signed with the
// service's test-domain key. It bypasses the send policy (sandbox, verified domain, monthly quota: the
// customer did not ask for it) but otherwise is an ordinary message: a row, an email.queued event, in
// the log, delivered and retried by the worker, which the accept commit wakes.
import type { Clock } from '../clock.js';
import type { AcceptItem, AcceptOutcome } from '../db/accept-repo.js';
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { GroupCommit } from '../group-commit.js';
import { newId } from '../ids.js';
import { parseAddress } from './address.js';

export interface SystemMailSettings {
  testDomain: string;
  /** Display name of the sender. */
  senderName: string;
}

export class SystemMail {
  constructor(
    private readonly settings: SystemMailSettings,
    private readonly deps: {
      accounts: AccountsRepo;
      batcher: GroupCommit<AcceptItem, AcceptOutcome>;
      clock: Clock;
    },
  ) {}

  /** Queues a message to the account's signup address; resolves to its id once committed. */
  async send(accountId: string, subject: string, html: string): Promise<string | undefined> {
    const account = await this.deps.accounts.findById(accountId);
    const to = account && parseAddress(account.email);
    if (!account || !to?.ok) return undefined;
    const now = this.deps.clock.now();
    const id = newId();
    const outcome = await this.deps.batcher.submit({
      message: {
        id,
        account_id: account.id,
        status: 'queued',
        from_name: this.settings.senderName,
        from_email: `notifications@${this.settings.testDomain}`,
        from_domain: this.settings.testDomain,
        to_name: '',
        to_email: to.address.email,
        to_domain: to.address.domain,
        subject: subject.replace(/[\r\n\0]+/g, ' '),
        html,
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
    return outcome.kind === 'accepted' ? id : undefined;
  }
}
