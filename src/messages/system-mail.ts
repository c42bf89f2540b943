// Mail txmail itself sends to its customers: sign-up verification, password resets and the guided test
// (from onboarding@<TXMAIL_TEST_DOMAIN>), and notices such as "your webhook endpoint was disabled" or
// "80 % of this month's emails are used" (from notifications@…). Each is queued under the customer's
// account, signed with the service's test-domain key. It bypasses the send policy (sandbox, verified
// domain, monthly quota: the customer did not send it) but otherwise is an ordinary message: a row, an
// email.queued event, in the log, delivered and retried by the worker, which the accept commit wakes.
import type { Clock } from '../clock.js';
import type { AcceptWriter } from '../accept/writer.js';
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { Account } from '../db/schema.js';
import { newId } from '../ids.js';
import { parseAddress } from './address.js';
import type { SealedHtml } from './sealed-html.js';

export interface SystemMailSettings {
  testDomain: string;
  /** Display name of the sender. */
  senderName: string;
}

export interface SystemMessage {
  /** Local part of the sender on the test domain: `onboarding` or `notifications`. */
  sender: 'onboarding' | 'notifications';
  /** Default: the account's signup address. */
  to?: string;
  subject: string;
  html: string;
  /**
   * The content carries a sign-in secret (a sign-up, reset or invitation link) for its recipient alone:
   * the log shows it without its content (sealedContent below), and its HTML is stored sealed
   * (sealed-html.ts).
   */
  sealed?: boolean;
}

/**
 * Whether a message's content is withheld from the log, by the data of its `email.queued` event. Mail
 * whose link signs its reader in (a password reset, an invitation) is queued as the account's mail, and
 * the account's log is read by every member and by its API keys: a viewer who asked for the owner's
 * reset link would otherwise read it there and take the owner's place (ARCHITECTURE.md, "Members,
 * roles and the audit log"). The event is written in the message's own accept transaction, so no
 * moment exists when the message is in the log and not yet sealed.
 */
export function sealedContent(queuedEventData: string | undefined): boolean {
  if (queuedEventData === undefined) return false;
  try {
    return (JSON.parse(queuedEventData) as { sealed?: unknown }).sealed === true;
  } catch {
    return false;
  }
}

export class SystemMail {
  constructor(
    private readonly settings: SystemMailSettings,
    private readonly deps: {
      accounts: AccountsRepo;
      writer: Pick<AcceptWriter, 'submit'>;
      clock: Clock;
      sealedHtml: SealedHtml;
    },
  ) {}

  /** The sender address of a kind of system mail. */
  address(sender: SystemMessage['sender']): string {
    return `${sender}@${this.settings.testDomain}`;
  }

  /** Queues a message for the account; resolves to its id once committed. */
  async queue(account: Account, m: SystemMessage): Promise<string> {
    const to = parseAddress(m.to ?? account.email);
    if (!to.ok) throw new Error(`system mail to an invalid address: ${to.reason}`);
    const now = this.deps.clock.now();
    const id = newId();
    const outcome = await this.deps.writer.submit({
      message: {
        id,
        account_id: account.id,
        status: 'queued',
        from_name: this.settings.senderName,
        from_email: this.address(m.sender),
        from_domain: this.settings.testDomain,
        to_name: '',
        to_email: to.address.email,
        to_domain: to.address.domain,
        // Never a header break: the subject is ours, but the guard costs nothing.
        subject: m.subject.replace(/[\r\n\0]+/g, ' '),
        created_at: now,
        updated_at: now,
        attempts: 0,
        next_attempt_at: now,
        lease_owner: null,
        lease_expires_at: null,
        category: null,
        // The service's own mail keeps the default retry period (ARCHITECTURE.md, "Expiry").
        deadline_at: null,
      },
      html: m.sealed ? this.deps.sealedHtml.seal(m.html) : m.html,
      event: {
        id: newId(),
        message_id: id,
        account_id: account.id,
        type: 'email.queued',
        created_at: now,
        data: JSON.stringify(m.sealed ? { system: true, sealed: true } : { system: true }),
      },
      // Stored sealed, and listed in the same transaction: the retention sweep removes the content once
      // the message is final (migration 036). Neither a copy of the database nor its WAL holds the link.
      ...(m.sealed ? { sealed: true as const } : {}),
    });
    if (outcome.kind !== 'accepted') throw new Error(`system mail not accepted: ${outcome.kind}`);
    return id;
  }

  /** A notice to the account's signup address; undefined when the account is gone. */
  async send(accountId: string, subject: string, html: string): Promise<string | undefined> {
    const account = await this.deps.accounts.findById(accountId);
    if (!account) return undefined;
    return this.queue(account, { sender: 'notifications', subject, html });
  }
}
