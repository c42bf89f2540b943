// Dashboard sessions: a random 256-bit id in an HttpOnly cookie, stored only as its SHA-256, with a
// 30-day sliding expiry. The CSRF token is an HMAC of the session id, so it needs no storage and
// changes with every session. Expired sessions are deleted by the retention sweeper. A session belongs to a
// member of the account (the owner unless said otherwise); the member's role is read at every request,
// so a role change or a removal applies at once.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock.js';
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { MembersRepo } from '../db/members-repo.js';
import type { SessionsRepo } from '../db/sessions-repo.js';
import type { Account, MemberRow, SessionRow } from '../db/schema.js';

export const SESSION_TTL_MS = 30 * 24 * 3600_000;
/** A session's expiry is pushed forward at most this often (one write per hour of use, not per request). */
const EXTEND_EVERY_MS = 3600_000;

export interface ActiveSession {
  /** The cookie value; only ever in memory and in the browser. */
  id: string;
  idHash: string;
  account: Account;
  /** Who signed in: the owner or an invited member. */
  member: MemberRow;
  expiresAt: number;
  /** True when the expiry moved: the cookie is sent again so the browser's copy slides too. */
  extended: boolean;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Where a session is started from: the client's address and its User-Agent header, if any. */
export interface SessionOrigin {
  ip: string;
  userAgent: string | undefined;
}

/** The longest address or User-Agent kept with a session. */
export const ORIGIN_TEXT = 256;

export class Sessions {
  constructor(
    private readonly repo: SessionsRepo,
    private readonly accounts: AccountsRepo,
    private readonly csrfKey: Buffer,
    private readonly clock: Clock,
    private readonly members: MembersRepo,
  ) {}

  /**
   * A new session of `member`, by default the account's owner (sign-up and verification links);
   * `origin`: where it is started from, shown with the session (kept cut to ORIGIN_TEXT characters).
   */
  async create(account: Account, member?: MemberRow, origin?: SessionOrigin): Promise<ActiveSession> {
    const id = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const signedIn = member ?? (await this.members.ensureOwner(account));
    const row: SessionRow = {
      id_hash: hashSecret(id),
      account_id: account.id,
      member_id: signedIn.id,
      created_at: now,
      last_seen_at: now,
      expires_at: now + SESSION_TTL_MS,
      ip: origin?.ip.slice(0, ORIGIN_TEXT) ?? null,
      user_agent: origin?.userAgent?.slice(0, ORIGIN_TEXT) ?? null,
    };
    await this.repo.create(row);
    return { id, idHash: row.id_hash, account, member: signedIn, expiresAt: row.expires_at, extended: true };
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
    // A row from before members (migration 028 gives every old row its owner) is the owner's.
    const member =
      row.member_id === null
        ? await this.members.ensureOwner(account)
        : await this.members.byId(row.member_id);
    if (!member || member.account_id !== account.id) return undefined;
    let expiresAt = row.expires_at;
    const extended = now - row.last_seen_at >= EXTEND_EVERY_MS;
    if (extended) {
      expiresAt = now + SESSION_TTL_MS;
      await this.repo.extend(idHash, now, expiresAt);
    }
    return { id, idHash, account, member, expiresAt, extended };
  }

  /** The live sessions of a member, newest first. */
  listOf(memberId: string): Promise<SessionRow[]> {
    return this.repo.listOf(memberId, this.clock.now());
  }

  /** Ends one session of the member, named by the start of its id hash; false when there is none. */
  revokeOf(memberId: string, idPrefix: string): Promise<boolean> {
    if (!/^[0-9a-f]{32}$/.test(idPrefix)) return Promise.resolve(false);
    return this.repo.deleteOf(memberId, idPrefix);
  }

  async revoke(idHash: string): Promise<void> {
    await this.repo.delete(idHash);
  }

  /**
   * Logs one member out everywhere (its password changed or was reset), but for `except` if given. Only
   * that member: the owner's new password says nothing about the members' own.
   */
  async revokeMember(member: Pick<MemberRow, 'id' | 'account_id'>, except?: string): Promise<void> {
    await this.repo.deleteOfMember(member.account_id, member.id, except);
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
