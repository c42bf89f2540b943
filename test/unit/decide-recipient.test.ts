// Which entry of a bounce report is about our message's one recipient, and what that entry may do to
// the address (inbound/decide-effects.ts chooseRecipient): an entry that is none of ours is a guess, and
// a guess among several addresses never suppresses ours.
import { describe, expect, it } from 'vitest';
import type { BouncedRecipient } from '../../src/bounce/inbound-report.js';
import { classifyReport } from '../../src/bounce/reply-intelligence.js';
import { decideEffects } from '../../src/inbound/decide-effects.js';

const OURS = 'jane@recipient.example';
const entry = (recipient: string, diagnostic: string, originalRecipient?: string): BouncedRecipient => ({
  recipient,
  originalRecipient,
  action: 'failed',
  status: undefined,
  diagnostic,
  remoteMta: undefined,
  classification: classifyReport({ action: 'failed', diagnostic, source: 'dsn' }),
});
const decide = (recipients: BouncedRecipient[]) =>
  decideEffects({
    report: {
      kind: 'bounce',
      format: 'dsn',
      reportingMta: undefined,
      recipients,
      original: { messageId: undefined, verpAddresses: [], to: undefined, headers: '' },
    },
    target: {
      id: 'm',
      account_id: 'a',
      status: 'delivered',
      to_email: OURS,
      to_domain: 'recipient.example',
      category: null,
    },
    inboundId: 'i',
    repeatedDisabled: false,
    newId: () => 'id',
    mailFrom: '',
  });
const USER_UNKNOWN = '550 5.1.1 User unknown';

describe("a bounce report's entry for our recipient", () => {
  it('suppresses ours for its own dead mailbox', () => {
    const d = decide([entry('ann@recipient.example', '552 5.2.2 Mailbox full'), entry(OURS, USER_UNKNOWN)]);
    expect(d).toMatchObject({ effect: { suppression: { address: OURS } } });
  });

  it("stands a forwarder's one rewritten address for ours", () => {
    const d = decide([entry('jane.doe@gmail.example', USER_UNKNOWN)]);
    expect(d).toMatchObject({ effect: { suppression: { address: OURS } } });
  });

  it("never suppresses ours for another's dead mailbox among several, none of them ours", () => {
    const d = decide([
      entry('ann@recipient.example', USER_UNKNOWN),
      entry('bob@recipient.example', USER_UNKNOWN),
    ]);
    expect(d).toMatchObject({ effect: { status: 'bounced', suppression: undefined } });
  });

  it('names the address we sent to, and the final one beside it, when only its Original-Recipient is ours', () => {
    const d = decide([entry('jdoe.4471@mbx03.corp.recipient.example', USER_UNKNOWN, OURS)]);
    expect(d).toMatchObject({
      effect: {
        event: { data: { recipient: OURS, final_recipient: 'jdoe.4471@mbx03.corp.recipient.example' } },
        suppression: { address: OURS },
      },
    });
  });
});
