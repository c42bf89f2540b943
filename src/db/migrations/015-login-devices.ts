// Device cookies (accounts/login-devices.ts): a browser that logged in to an account holds a random id
// for it, stored here only as its SHA-256, so its log-ins are counted apart from everyone else's and a
// flood of guesses from elsewhere never locks that browser out.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_devices')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // Pushed forward by each log-in from the browser; deleted by the retention sweeper once past.
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  // An account's devices are all forgotten at once (the address proven, the password reset or changed).
  await db.schema.createIndex('login_devices_account').on('login_devices').column('account_id').execute();
  await db.schema.createIndex('login_devices_expires').on('login_devices').column('expires_at').execute();
}
