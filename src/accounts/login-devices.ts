// Device cookies (OWASP's "slow down online guessing attacks with device cookies"): a browser that
// logs in to an account is given a random id for it, in a long-lived HttpOnly cookie, and stored only as
// its SHA-256, bound to that account. A log-in attempt that presents a live id bound to the address it
// tries is counted per (device, address) and nowhere else (login-limits.ts), so guesses from other
// browsers, however many networks they come from, never lock the owner's own browsers out.
import { randomBytes } from 'node:crypto';
import type { LoginDevicesRepo } from '../db/login-devices-repo.js';
import { hashSecret } from './sessions.js';

/** How long a browser stays remembered after its last log-in (browsers cap cookies at 400 days). */
export const DEVICE_TTL_MS = 365 * 24 * 3600_000;

export interface RememberedDevice {
  /** The cookie value; only ever in memory and in the browser. */
  id: string;
  expiresAt: number;
}

export class LoginDevices {
  constructor(private readonly repo: LoginDevicesRepo) {}

  /**
   * The hash of `id` when it names a live device bound to the account at `email`; undefined for no
   * cookie, a malformed or unknown one, an expired one, or one of another account (then the attempt is
   * counted like any other).
   */
  async recognise(id: string | undefined, email: string, now: number): Promise<string | undefined> {
    if (id === undefined || !/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const idHash = hashSecret(id);
    return (await this.repo.belongsTo(idHash, email.trim().toLowerCase(), now)) ? idHash : undefined;
  }

  /**
   * The browser just logged in to the account: it keeps `recognised` (the id it presented, when that
   * was bound to this account), pushed forward, or is given a new id.
   */
  async remember(accountId: string, recognised: string | undefined, now: number): Promise<RememberedDevice> {
    const id = recognised ?? randomBytes(32).toString('base64url');
    const expiresAt = now + DEVICE_TTL_MS;
    await this.repo.remember({
      id_hash: hashSecret(id),
      account_id: accountId,
      created_at: now,
      expires_at: expiresAt,
    });
    return { id, expiresAt };
  }

  /** Forgets every browser of the account (its password changed or was reset). */
  async forgetAll(accountId: string): Promise<void> {
    await this.repo.forgetAll(accountId);
  }
}
