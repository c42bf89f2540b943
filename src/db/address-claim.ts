// One address, one holder (accounts/address-holder.ts): an account or an invited member, never both.
// The callers look first and answer a taken address in their own ways; the insert that makes a holder
// (a sign-up's account, the operator's account, an invitation) then claims the address inside its own
// transaction, so two of them racing for one address cannot both pass the look-up and both write. No
// unique index spans the two tables (an owner's member row is made lazily, ensureOwner), so the
// claim serialises the writers of one address: PostgreSQL by a transaction-scoped advisory lock on
// the address, SQLite by its single writer, whose lock every transaction takes before it looks
// (database.ts: transactions begin IMMEDIATE).
import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.js';
import type { Database } from './schema.js';

/**
 * Inside `trx`, before inserting a holder of `address`: takes the address's lock (PostgreSQL), then
 * answers whether the address is still free of the other kind of holder: an account (for an
 * invitation) or an invited member (for an account). The same kind is the inserts' own unique index.
 */
export async function claimAddress(
  trx: Kysely<Database>,
  dialect: Dialect,
  address: string,
  against: 'account' | 'member',
): Promise<boolean> {
  if (dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`txmail address ${address}`}, 0))`.execute(trx);
  }
  const holder =
    against === 'account'
      ? await trx.selectFrom('accounts').select('id').where('email', '=', address).executeTakeFirst()
      : await trx
          .selectFrom('members')
          .select('id')
          .where('email', '=', address)
          .where('role', '<>', 'owner')
          .executeTakeFirst();
  return holder === undefined;
}
