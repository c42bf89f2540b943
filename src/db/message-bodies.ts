// A message's HTML lives in message_bodies, apart from its row (migration 033): the queue's stores read
// it for the messages they claim, in one statement per claim.
import type { MessageBodiesTable, MessageRow, MessageWithBody } from './schema.js';

/**
 * The claimed rows (fresh objects from the driver, given their HTML in place), each with its body. A
 * message always has one (the accept writes both in one transaction); a row without would be built
 * with no HTML rather than stop every other message of the claim.
 */
export function withBodies(rows: MessageRow[], bodies: MessageBodiesTable[]): MessageWithBody[] {
  const html = new Map(bodies.map((b) => [b.message_id, b.html]));
  for (const row of rows) (row as MessageWithBody).html = html.get(row.id) ?? '';
  return rows as MessageWithBody[];
}
