// Whether a disabled-mailbox bounce is "repeated" (bounce/categories.ts suppresses): read the same way
// whether the new bounce came during the SMTP session (the worker) or in a report (the receiver).
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Whether another message of this account to `toEmail` (any case) bounced as `mailbox_disabled` (during
 * its session or by a report) since `since`. One query on the partial index messages_account_category
 * (account, category): it reads only the account's messages of that category, a handful.
 */
export async function bouncedDisabledBefore(
  db: Kysely<Database>,
  accountId: string,
  toEmail: string,
  exceptMessageId: string,
  since: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('messages')
    .select('id')
    .where('account_id', '=', accountId)
    .where('category', '=', 'mailbox_disabled')
    .where('status', '=', 'bounced')
    .where(sql<string>`lower(to_email)`, '=', toEmail.toLowerCase())
    .where('id', '!=', exceptMessageId)
    .where('updated_at', '>=', since)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
