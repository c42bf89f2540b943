// Dashboard sessions and one-time account tokens, both looked up by the SHA-256 of a secret.
import type { Kysely } from 'kysely';
import { ownerMemberId } from './members-repo.js';
import type { AccountTokenPurpose, AccountTokenRow, Database, SessionRow } from './schema.js';

export class SessionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async create(session: SessionRow): Promise<void> {
    await this.db.insertInto('sessions').values(session).execute();
  }

  /** The unexpired session with this id hash. */
  async find(idHash: string, now: number): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom('sessions')
      .selectAll()
      .where('id_hash', '=', idHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async extend(idHash: string, lastSeenAt: number, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: lastSeenAt, expires_at: expiresAt })
      .where('id_hash', '=', idHash)
      .execute();
  }

  /** The member's unexpired sessions, newest first. */
  async listOf(memberId: string, now: number): Promise<SessionRow[]> {
    return this.db
      .selectFrom('sessions')
      .selectAll()
      .where('member_id', '=', memberId)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .execute();
  }

  /**
   * Deletes the member's session whose id hash starts with `idPrefix` (32 hex digits: the public name
   * of a session; the hash of a 256-bit secret, useless for signing in); false when there is none.
   */
  async deleteOf(memberId: string, idPrefix: string): Promise<boolean> {
    const r = await this.db
      .deleteFrom('sessions')
      .where('member_id', '=', memberId)
      .where('id_hash', 'like', `${idPrefix}%`)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  async delete(idHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }

  /**
   * Every session of one member of the account (its password changed or was reset), but `except` if
   * given; nobody else's. A row without a member (from before migration 028, which gave every row its
   * owner) is the owner's, as Sessions.authenticate reads it.
   */
  async deleteOfMember(accountId: string, memberId: string, except?: string): Promise<void> {
    let q = this.db
      .deleteFrom('sessions')
      .where('account_id', '=', accountId)
      .where((eb) =>
        memberId === ownerMemberId(accountId)
          ? eb.or([eb('member_id', '=', memberId), eb('member_id', 'is', null)])
          : eb('member_id', '=', memberId),
      );
    if (except !== undefined) q = q.where('id_hash', '!=', except);
    await q.execute();
  }

  async createToken(token: AccountTokenRow): Promise<void> {
    await this.db.insertInto('account_tokens').values(token).execute();
  }

  /**
   * Marks the live token used and answers its row; undefined when unknown, expired, already used or of
   * another purpose. One conditional UPDATE, so two concurrent uses cannot both succeed.
   */
  async useToken(
    tokenHash: string,
    purpose: AccountTokenPurpose,
    now: number,
  ): Promise<AccountTokenRow | undefined> {
    return this.db
      .updateTable('account_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * Invalidates the unused tokens of one purpose of the account's owner (`memberId` null) or of one
   * invited member (a new one replaces them); nobody else's.
   */
  async expireTokens(
    accountId: string,
    memberId: string | null,
    purpose: AccountTokenPurpose,
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('account_tokens')
      .set({ used_at: now })
      .where('account_id', '=', accountId)
      .where('member_id', memberId === null ? 'is' : '=', memberId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .execute();
  }
}
