// A queued message with its first event, as the accept path hands it to a writer.
import type { AcceptItem } from '../../src/db/accept-item.js';
import { newId } from '../../src/ids.js';
import { messageRow } from './message-row.js';

export function acceptItem(accountId: string, id = newId()): AcceptItem {
  const now = Date.now();
  return {
    message: messageRow(accountId, { id, created_at: now, updated_at: now, next_attempt_at: now }),
    html: '<p>x</p>',
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
