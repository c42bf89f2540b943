// A message row for tests that put messages straight into the database: queued now, from
// noreply@acme.example to someone at dest.example, with whatever the test needs changed. Its HTML is
// not in the row (message_bodies): a claim gives a message without a body row the HTML ''.
import type { MessageRow, MessageWithBody } from '../../src/db/schema.js';
import { newId } from '../../src/ids.js';

export function messageRow(accountId: string, changes: Partial<MessageRow> = {}): MessageRow {
  const now = Date.now();
  return {
    id: newId(),
    account_id: accountId,
    status: 'queued',
    from_name: '',
    from_email: 'noreply@acme.example',
    from_domain: 'acme.example',
    to_name: '',
    to_email: 'someone@dest.example',
    to_domain: 'dest.example',
    subject: 's',
    created_at: now,
    updated_at: now,
    attempts: 0,
    next_attempt_at: now,
    lease_owner: null,
    lease_expires_at: null,
    category: null,
    deadline_at: null,
    ...changes,
  };
}

/** A message as the worker has it once claimed: the row with its HTML. */
export function claimedMessage(accountId: string, changes: Partial<MessageWithBody> = {}): MessageWithBody {
  const { html = '<p>x</p>', ...row } = changes;
  return { ...messageRow(accountId, row), html };
}
