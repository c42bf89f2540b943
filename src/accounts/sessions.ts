// Dashboard sessions: a random 256-bit id in an HttpOnly cookie, stored only as its SHA-256, with a
// 30-day sliding expiry. The CSRF token is an HMAC of the session id, so it needs no storage and
// changes with every session. Expired sessions are deleted by the retention sweeper.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { SessionsRepo } from '../db/sessions-repo.js';
import type { Account, SessionRow } from '../db/schema.js';

export const SESSION_TTL_MS = 30 * 24 * 3600_000;
/** A session's expiry is pushed forward at most this often (one write per hour of use, not per request). */
const EXTEND_EVERY_MS = 3600_000;

export interface ActiveSession {
  /** The cookie value; only ever in memory and in the browser. */
  id: string;
  idHash: string;
  account: Account;
  expiresAt: number;
  /** True when the expiry moved: the cookie is sent again so the browser's copy slides too. */
  extended: boolean;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export class Sessions {
  constructor(
    private readonly repo: SessionsRepo,
    private readonly accounts: AccountsRepo,
    private readonly csrfKey: Buffer,
    private readonly clock: Clock,
  ) {}

  async create(account: Account): Promise<ActiveSession> {
    const id = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const row: SessionRow = {
      id_hash: hashSecret(id),
      account_id: account.id,
      created_at: now,
      last_seen_at: now,
      expires_at: now + SESSION_TTL_MS,
    };
    await this.repo.create(row);
    return { id, idHash: row.id_hash, account, expiresAt: row.expires_at, extended: true };
  }

  /** The live session for a cookie value, extending it when due; undefined when unknown or expired. */
  async authenticate(id: string): Promise<ActiveSession | undefined> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const now = this.clock.now();
    const idHash = hashSecret(id);
    const row = await this.repo.find(idHash, now);
    if (!row) return undefined;
    const account = await this.accounts.findById(row.account_id);
    if (!account) return undefined;
    let expiresAt = row.expires_at;
    const extended = now - row.last_seen_at >= EXTEND_EVERY_MS;
    if (extended) {
      expiresAt = now + SESSION_TTL_MS;
      await this.repo.extend(idHash, now, expiresAt);
    }
    return { id, idHash, account, expiresAt, extended };
  }

  async revoke(idHash: string): Promise<void> {
    await this.repo.delete(idHash);
  }

  /** Logs the account out everywhere (password changed or reset), but for `except` if given. */
  async revokeAll(accountId: string, except?: string): Promise<void> {
    await this.repo.deleteAll(accountId, except);
  }

  csrfToken(sessionId: string): string {
    return createHmac('sha256', this.csrfKey).update(sessionId).digest('base64url');
  }

  checkCsrf(sessionId: string, sent: string | undefined): boolean {
    if (sent === undefined) return false;
    const expected = Buffer.from(this.csrfToken(sessionId));
    const got = Buffer.from(sent);
    return got.length === expected.length && timingSafeEqual(got, expected);
  }
}
