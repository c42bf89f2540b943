// A queued message with its first event, as the accept path hands it to a writer.
import type { AcceptItem } from '../../src/db/accept-repo.js';
import { newId } from '../../src/ids.js';

export function acceptItem(accountId: string, id = newId()): AcceptItem {
  const now = Date.now();
  return {
    message: {
      id,
      account_id: accountId,
      status: 'queued',
      from_name: '',
      from_email: 'a@acme.example',
      from_domain: 'acme.example',
      to_name: '',
      to_email: 'b@dest.example',
      to_domain: 'dest.example',
      subject: 's',
      html: '<p>x</p>',
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
      account_id: accountId,
      type: 'email.queued',
      created_at: now,
      data: '{}',
    },
  };
}
