// Teams (docs/design.md §2, "Members"): an account has members, each with a role; sessions belong to a
// member. Every existing account's user becomes its owner member (id `own_<account id>`): the owner's
// address and password stay on the account row (sign-up, verification and reset links keep working
// unchanged), the member row holds the role and the two-factor state. Existing sessions become the
// owner's. Invite tokens and recovery codes are stored as SHA-256 hashes; TOTP secrets sealed
// (crypto/secret-box.ts).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('members')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    // owner | admin | developer | viewer
    .addColumn('role', 'text', (c) => c.notNull())
    // Invited members' own password; null for the owner (the account's) and for a pending invite.
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // Null while the invitation is pending.
    .addColumn('accepted_at', 'bigint')
    .addColumn('invite_token_hash', 'text')
    .addColumn('invite_expires_at', 'bigint')
    // Sealed TOTP secrets: the one being set up, and the confirmed one (two-factor sign-in on).
    .addColumn('totp_pending_secret', 'text')
    .addColumn('totp_secret', 'text')
    .addColumn('totp_enabled_at', 'bigint')
    // The last time step a code was accepted for: a code is refused at or before it (no replay).
    .addColumn('totp_last_step', 'bigint')
    .execute();
  await db.schema.createIndex('members_account').on('members').column('account_id').execute();
  // One invited membership per address across the service (a log-in names a member by its address);
  // owners' addresses are the accounts' own, unique there.
  await sql`create unique index members_invited_email on members (email) where role <> 'owner'`.execute(db);
  await sql`create unique index members_invite_token on members (invite_token_hash) where invite_token_hash is not null`.execute(
    db,
  );
  await db.schema
    .createTable('member_recovery_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('member_id', 'text', (c) => c.notNull().references('members.id').onDelete('cascade'))
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('member_recovery_codes_member')
    .on('member_recovery_codes')
    .column('member_id')
    .execute();
  // Set by the owner: every member must sign in with a second factor, and enrol before anything else.
  await db.schema.alterTable('accounts').addColumn('require_totp_at', 'bigint').execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('member_id', 'text', (c) => c.references('members.id').onDelete('cascade'))
    .execute();
  await sql`insert into members (id, account_id, email, role, created_at, accepted_at)
    select 'own_' || id, id, email, 'owner', created_at, created_at from accounts`.execute(db);
  await sql`update sessions set member_id = 'own_' || account_id`.execute(db);
  await db.schema.createIndex('sessions_member').on('sessions').column('member_id').execute();
}
