// Passwords are stored as scrypt hashes (a deliberately slow, memory-hard KDF) with a random salt. Each
// hash carries its own parameters, so a change of the cost (TXMAIL_PASSWORD_COST) applies to passwords
// set from then on and every stored hash still verifies.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { AppError } from '../errors.js';

/** scrypt's N for new hashes unless configured: 16 MiB of memory and some 50 ms of CPU a hash. */
export const DEFAULT_PASSWORD_COST = 16384;
/**
 * The range TXMAIL_PASSWORD_COST may take (powers of two): below 1024 a hash guards next to nothing;
 * a hash takes 128·N·8 bytes of memory, and sign-up and log-in hash for anyone who asks, four at once
 * on libuv's threads, so the top (128 MiB a hash) keeps that within half a GiB.
 */
export const PASSWORD_COST_RANGE = { min: 1024, max: 1 << 17 } as const;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, opts: ScryptOptions): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node refuses more than 32 MiB unless told the bound.
  const maxmem = 2 * 128 * (opts.N ?? DEFAULT_PASSWORD_COST) * (opts.r ?? R);
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...opts, maxmem }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** Makes the stored form of new passwords at one cost (verifyPassword reads any stored form). */
export class PasswordHasher {
  constructor(private readonly cost: number = DEFAULT_PASSWORD_COST) {}

  /** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
  async hash(password: string): Promise<string> {
    const salt = randomBytes(16);
    const key = await derive(password, salt, { N: this.cost, r: R, p: P });
    return ['scrypt', this.cost, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  /**
   * Whether a stored hash was made at other parameters than new ones are: log-in then stores the
   * password again at today's cost (dashboard-auth.ts), so after a change of TXMAIL_PASSWORD_COST a
   * log-in to an old account comes to take as long as one to an unknown address.
   */
  isOutdated(stored: string): boolean {
    const [scheme, n, r, p] = stored.split('$');
    return scheme !== 'scrypt' || Number(n) !== this.cost || Number(r) !== R || Number(p) !== P;
  }

  /**
   * verifyPassword, taking as long as a hash at today's cost at least: a hash stored at other
   * parameters is checked beside a throwaway one at today's. A log-in to an address without an account
   * checks a hash at today's cost (dashboard-auth.ts); without this, one to an account whose password was
   * stored before TXMAIL_PASSWORD_COST was raised answered sooner, and told that the address has an
   * account (until its next log-in stores it again). After the cost was lowered, the old hash still
   * takes longer than an unknown address's: nothing here can shorten it.
   */
  async verify(password: string, stored: string): Promise<boolean> {
    if (!this.isOutdated(stored)) return verifyPassword(password, stored);
    const [ok] = await Promise.all([verifyPassword(password, stored), this.hash(password)]);
    return ok;
  }
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Refuses a new password (sign-up, reset, change) that is too short, or long enough to cost real CPU. */
export function checkNewPassword(password: string): void {
  if (password.length < 10)
    throw new AppError('validation_error', '"password" must be at least 10 characters');
  if (password.length > 1024)
    throw new AppError('validation_error', '"password" must be at most 1024 characters');
}
