// A message row for tests that put messages straight into the database: queued now, from
// noreply@acme.example to someone at dest.example, with whatever the test needs changed.
import type { MessageRow } from '../../src/db/schema.js';
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
    html: '<p>x</p>',
    created_at: now,
    updated_at: now,
    attempts: 0,
    next_attempt_at: now,
    lease_owner: null,
    lease_expires_at: null,
    category: null,
    ...changes,
  };
}
