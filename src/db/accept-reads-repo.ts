// What the accept path reads outside its transaction, the same on both databases: a stored
// Idempotency-Key's answer, and the month's count against the cap.
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export class AcceptReadsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** The request hash and answer stored under this key since `notBefore` (the key's time to live). */
  async findIdempotencyKey(
    accountId: string,
    key: string,
    notBefore: number,
  ): Promise<{ request_hash: string; response: string } | undefined> {
    return this.db
      .selectFrom('idempotency_keys')
      .select(['request_hash', 'response'])
      .where('account_id', '=', accountId)
      .where('key', '=', key)
      .where('created_at', '>=', notBefore)
      .executeTakeFirst();
  }

  /** This month's count of sends against the cap. */
  async usage(accountId: string, month: string): Promise<number> {
    const row = await this.db
      .selectFrom('usage')
      .select('sent')
      .where('account_id', '=', accountId)
      .where('month', '=', month)
      .executeTakeFirst();
    return row?.sent ?? 0;
  }
}
