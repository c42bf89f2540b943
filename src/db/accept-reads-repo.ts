// What the accept path reads outside its transaction, the same on both databases: a stored
// Idempotency-Key's answer.
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
}
