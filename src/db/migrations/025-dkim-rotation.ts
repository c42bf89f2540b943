// DKIM hardening and rotation (ARCHITECTURE.md, "DKIM"): a key's algorithm (an Ed25519 key signs beside
// the RSA one, RFC 8463) and its place in a rotation: `active` keys sign, a `pending` key waits for its
// record to be found in DNS, a `retired` one no longer signs (its record may stay published a while).
// Existing keys are RSA keys, active since they were made; before rotation only the newest key of a
// domain and owner signed (by created_at, then id), so the older ones are retired from when the next one
// was made: they no longer sign, and the dashboard and `txmail dns` say their records may go.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema
    .alterTable('dkim_keys')
    .addColumn('algorithm', 'text', (c) => c.notNull().defaultTo('rsa-sha256'))
    .execute();
  await db.schema
    .alterTable('dkim_keys')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .execute();
  await db.schema.alterTable('dkim_keys').addColumn('activated_at', 'bigint').execute();
  await db.schema.alterTable('dkim_keys').addColumn('retired_at', 'bigint').execute();
  // The last look-up of a pending key's record: when, what was found, and why it did not match.
  await db.schema.alterTable('dkim_keys').addColumn('record_checked_at', 'bigint').execute();
  await db.schema.alterTable('dkim_keys').addColumn('record_status', 'text').execute();
  await db.schema.alterTable('dkim_keys').addColumn('record_problem', 'text').execute();
  await sql`update dkim_keys set activated_at = created_at`.execute(db);
  // Owners compared with coalesce: the service's keys have no account (null on both sides).
  const newer = sql`from dkim_keys n where n.domain = dkim_keys.domain
    and coalesce(n.account_id, '') = coalesce(dkim_keys.account_id, '')
    and (n.created_at > dkim_keys.created_at or (n.created_at = dkim_keys.created_at and n.id > dkim_keys.id))`;
  await sql`update dkim_keys set status = 'retired', retired_at = (select min(n.created_at) ${newer})
    where exists (select 1 ${newer})`.execute(db);
  // At most one pending key per domain, owner and algorithm: two rotations at once make one key (the
  // second insert fails and reads the first's). The service's keys have no account: coalesce, so they
  // count as one owner on PostgreSQL too (where nulls are distinct).
  await sql`create unique index dkim_keys_one_pending on dkim_keys (domain, coalesce(account_id, ''), algorithm) where status = 'pending'`.execute(
    db,
  );
  // The signing key look-up: a domain's active keys.
  await db.schema
    .createIndex('dkim_keys_domain_status')
    .on('dkim_keys')
    .columns(['domain', 'status'])
    .execute();
}
