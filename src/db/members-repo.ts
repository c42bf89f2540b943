// Members of accounts (migration 028): invitations, roles, the two-factor state and recovery codes.
// Every change that must happen once (an invitation used, a TOTP step, a recovery code) is one
// conditional UPDATE, so two concurrent uses cannot both succeed.
import type { Kysely } from 'kysely';
import { claimAddress } from './address-claim.js';
import type { Dialect } from './database.js';
import type { Account, Database, MemberRole, MemberRow } from './schema.js';

/** The owner member's id: derived from the account's, so it never needs a look-up to exist. */
export function ownerMemberId(accountId: string): string {
  return `own_${accountId}`;
}

/** Thrown by MembersRepo.insert when the address has an account (address-claim.ts). */
export class AddressTakenError extends Error {
  constructor(address: string) {
    super(`${address} already has an account`);
  }
}

export class MembersRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * The account's owner member, made if it is missing (accounts made after migration 028 get theirs at
   * their first session).
   */
  async ensureOwner(account: Account): Promise<MemberRow> {
    const id = ownerMemberId(account.id);
    await this.db
      .insertInto('members')
      .values({
        id,
        account_id: account.id,
        email: account.email,
        role: 'owner',
        password_hash: null,
        created_at: account.created_at,
        accepted_at: account.created_at,
        invite_token_hash: null,
        invite_expires_at: null,
        totp_pending_secret: null,
        totp_secret: null,
        totp_enabled_at: null,
        totp_last_step: null,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    return (await this.find(account.id, id))!;
  }

  /**
   * A new invited member; AddressTakenError when its address has an account, a unique-index error
   * when it has another invited membership (a concurrent invitation).
   */
  async insert(row: MemberRow): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (!(await claimAddress(trx, this.dialect, row.email, 'account')))
        throw new AddressTakenError(row.email);
      await trx.insertInto('members').values(row).execute();
    });
  }

  async byId(id: string): Promise<MemberRow | undefined> {
    return this.db.selectFrom('members').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** One member of the account (never another account's). */
  async find(accountId: string, id: string): Promise<MemberRow | undefined> {
    return this.db
      .selectFrom('members')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** An invited member (not an owner) with this address, accepted or not. */
  async findInvitedByEmail(email: string): Promise<MemberRow | undefined> {
    return this.db
      .selectFrom('members')
      .selectAll()
      .where('email', '=', email)
      .where('role', '<>', 'owner')
      .executeTakeFirst();
  }

  async list(accountId: string): Promise<MemberRow[]> {
    return this.db
      .selectFrom('members')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /**
   * Changes an invited member's role (the owner's never changes here), and with it the bound of the
   * keys the member made (docs/design.md §2); false when there is none.
   */
  async setRole(accountId: string, id: string, role: MemberRole): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const r = await tx
        .updateTable('members')
        .set({ role })
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .where('role', '<>', 'owner')
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await tx.updateTable('api_keys').set({ role }).where('member_id', '=', id).execute();
      return true;
    });
  }

  /**
   * Removes an invited member with its sessions (cascade) and revokes the keys it made; false when
   * there is none.
   */
  async remove(accountId: string, id: string, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const r = await tx
        .deleteFrom('members')
        .where('account_id', '=', accountId)
        .where('id', '=', id)
        .where('role', '<>', 'owner')
        .executeTakeFirst();
      if (Number(r.numDeletedRows) !== 1) return false;
      await tx
        .updateTable('api_keys')
        .set({ revoked_at: now })
        .where('member_id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
      return true;
    });
  }

  /**
   * A new link for an invitation not yet used (expired or not): the old token's hash is replaced, so the
   * old link stops working. Only while the invitation is still the one read (its expiry `was`): of two
   * renewals at once, one wins. Undefined when another renewal came first, the member has joined
   * meanwhile, or is gone.
   */
  async renewInvite(
    accountId: string,
    id: string,
    was: number,
    tokenHash: string,
    expiresAt: number,
  ): Promise<MemberRow | undefined> {
    return this.db
      .updateTable('members')
      .set({ invite_token_hash: tokenHash, invite_expires_at: expiresAt })
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('invite_expires_at', '=', was)
      .where('role', '<>', 'owner')
      .returningAll()
      .executeTakeFirst();
  }

  /** The member a live invitation is for; undefined when unknown, used or expired. */
  async liveInvite(tokenHash: string, now: number): Promise<MemberRow | undefined> {
    return this.db
      .selectFrom('members')
      .selectAll()
      .where('invite_token_hash', '=', tokenHash)
      .where('accepted_at', 'is', null)
      .where('invite_expires_at', '>', now)
      .executeTakeFirst();
  }

  /** Uses a live invitation: sets the member's password; undefined when unknown, used or expired. */
  async acceptInvite(tokenHash: string, passwordHash: string, now: number): Promise<MemberRow | undefined> {
    return this.db
      .updateTable('members')
      .set({
        password_hash: passwordHash,
        accepted_at: now,
        invite_token_hash: null,
        invite_expires_at: null,
      })
      .where('invite_token_hash', '=', tokenHash)
      .where('accepted_at', 'is', null)
      .where('invite_expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * `replacing`: only while the stored hash is still that one (log-in storing the same password again
   * at today's cost never undoes a password set meanwhile).
   */
  async setPassword(id: string, passwordHash: string, replacing?: string): Promise<void> {
    let q = this.db.updateTable('members').set({ password_hash: passwordHash }).where('id', '=', id);
    if (replacing !== undefined) q = q.where('password_hash', '=', replacing);
    await q.execute();
  }

  async setPendingTotp(id: string, sealed: string): Promise<void> {
    await this.db.updateTable('members').set({ totp_pending_secret: sealed }).where('id', '=', id).execute();
  }

  /**
   * Turns two-factor sign-in on with the pending secret, the confirming code's step recorded (so it is
   * not accepted again), and the recovery codes replaced.
   */
  async enableTotp(
    id: string,
    sealed: string,
    step: number,
    now: number,
    codeHashes: string[],
  ): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('members')
        .set({
          totp_secret: sealed,
          totp_pending_secret: null,
          totp_enabled_at: now,
          totp_last_step: step,
        })
        .where('id', '=', id)
        .execute();
      await tx.deleteFrom('member_recovery_codes').where('member_id', '=', id).execute();
      await tx
        .insertInto('member_recovery_codes')
        .values(codeHashes.map((code_hash) => ({ code_hash, member_id: id, used_at: null })))
        .execute();
    });
  }

  /** Turns two-factor sign-in off: the secrets and recovery codes go (the last step stays: no replay). */
  async disableTotp(id: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('members')
        .set({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null })
        .where('id', '=', id)
        .execute();
      await tx.deleteFrom('member_recovery_codes').where('member_id', '=', id).execute();
    });
  }

  /** Records that a code of `step` was used; false when that step or a later one was used already. */
  async claimTotpStep(id: string, step: number): Promise<boolean> {
    const r = await this.db
      .updateTable('members')
      .set({ totp_last_step: step })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Uses one unused recovery code of the member; false when it is unknown or used. */
  async useRecoveryCode(memberId: string, codeHash: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('member_recovery_codes')
      .set({ used_at: now })
      .where('member_id', '=', memberId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async setRequireTotp(accountId: string, at: number | null): Promise<void> {
    await this.db.updateTable('accounts').set({ require_totp_at: at }).where('id', '=', accountId).execute();
  }
}
