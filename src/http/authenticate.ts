// Authentication of API calls, run before the body is read: an API key (x-api-key, servers) or the
// dashboard's session cookie plus its CSRF token (x-csrf-token on every state-changing request).
// Then the per-key (or per-session) and per-account rate limits.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeyAuth } from '../accounts/api-key-auth.js';
import type { ActiveSession, Sessions } from '../accounts/sessions.js';
import type { Clock } from '../clock.js';
import type { Account, ApiKeyRow, MemberRole } from '../db/schema.js';
import { AppError, rateLimited } from '../errors.js';
import { allows, type Permission } from './permissions.js';
import type { RateLimiter } from './rate-limit.js';
import { clearedSessionCookie, readCookie, SESSION_COOKIE, sessionCookie } from './session-cookie.js';

export interface AuthContext {
  account: Account;
  /** The API key used; null when the caller is the dashboard (session). */
  apiKeyId: string | null;
  /** The role that bounds the key (made by an invited member); null: full rights, or a session. */
  apiKeyRole: MemberRole | null;
  /**
   * The key's name and prefix, which the audit log names it by (access-hooks.ts), as the cached row holds
   * them: the label is made only for an audited change, never on the send path. Null with a session.
   */
  apiKeyNames: Pick<ApiKeyRow, 'name' | 'prefix'> | null;
  /** The dashboard session; null when the caller used an API key. */
  session: ActiveSession | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The caller's account; only valid inside routes registered behind `authHook`. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error('route is missing the authentication hook');
  return request.auth;
}

/**
 * Whether the caller may use what `permission` guards, for a route that shows more or less by it: a
 * session by its member's role, a key an invited member made by its maker's, any other key always.
 */
export function callerMay(auth: AuthContext, permission: Permission): boolean {
  if (auth.session) return allows(auth.session.member.role, permission);
  return auth.apiKeyRole === null || allows(auth.apiKeyRole, permission);
}

/** The dashboard session of the caller, or `session_required` when it used an API key. */
export function sessionOf(request: FastifyRequest): ActiveSession {
  const { session } = authOf(request);
  if (!session) {
    throw new AppError(
      'session_required',
      'this route is for the dashboard (log in there); API keys cannot manage keys or run the guided test',
    );
  }
  return session;
}

export interface AuthHookDeps {
  auth: ApiKeyAuth;
  sessions: Sessions;
  limiter: RateLimiter;
  clock: Clock;
  secureCookies: boolean;
}

export function authHook(deps: AuthHookDeps) {
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    const cookie = key === undefined ? readCookie(request.headers.cookie, SESSION_COOKIE) : undefined;
    let bucket: string;
    if (cookie !== undefined && cookie !== '') {
      const session = await deps.sessions.authenticate(cookie);
      if (!session) {
        reply.header('Set-Cookie', clearedSessionCookie(deps.secureCookies));
        throw new AppError(
          'session_expired',
          'your dashboard session has expired or was logged out; log in again',
        );
      }
      // SameSite=Lax already keeps the cookie off cross-site POSTs; the token also covers same-site
      // pages (another app on a sibling subdomain) and old browsers.
      if (!SAFE_METHODS.has(request.method)) {
        const sent = request.headers['x-csrf-token'];
        if (!deps.sessions.checkCsrf(session.id, Array.isArray(sent) ? sent[0] : sent)) {
          throw new AppError(
            'csrf_token_invalid',
            'send the x-csrf-token header given by GET /api/auth/session with this request',
          );
        }
      }
      if (session.extended) {
        reply.header(
          'Set-Cookie',
          sessionCookie(session.id, deps.secureCookies, session.expiresAt - deps.clock.now()),
        );
      }
      request.auth = {
        account: session.account,
        apiKeyId: null,
        apiKeyRole: null,
        apiKeyNames: null,
        session,
      };
      // One bucket for every session of the account (rate-limit.ts): more log-ins buy no more requests.
      bucket = `dashboard:${session.account.id}`;
    } else {
      // API keys stay on servers (docs/design.md §2). A browser always sends Origin on
      // cross-origin and on POST requests; refusing those makes a leaked-into-frontend key fail loudly.
      if (key !== undefined && request.headers.origin !== undefined) {
        throw new AppError(
          'browser_request_refused',
          'API keys must only be used from servers, never from browser code; call txmail from your backend',
        );
      }
      const found = await deps.auth.authenticate(key);
      request.auth = {
        account: found.account,
        apiKeyId: found.key.id,
        apiKeyRole: found.key.role,
        apiKeyNames: found.key,
        session: null,
      };
      bucket = found.key.id;
    }
    if (!deps.limiter.enabled) return;
    const { account } = request.auth;
    const browsing = request.auth.session !== null && SAFE_METHODS.has(request.method);
    const d = await deps.limiter.take(
      bucket,
      browsing ? undefined : { id: account.id, plan: account.plan },
      deps.clock.now(),
    );
    reply.header('RateLimit-Limit', String(d.limit));
    reply.header('RateLimit-Remaining', String(d.remaining));
    reply.header('RateLimit-Reset', String(d.resetSeconds));
    if (!d.allowed) {
      throw rateLimited(
        d.scope === 'key'
          ? request.auth.session
            ? `this account's dashboard is limited to ${d.limit} requests in a burst; slow down`
            : `this API key is limited to ${d.limit} requests in a burst; slow down`
          : `this account (${account.plan} plan) is limited to ${d.limit} requests in a burst across its keys; slow down`,
        d.retryAfterSeconds,
      );
    }
  };
}
