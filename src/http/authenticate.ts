// Authentication of API calls (x-api-key) and the per-key rate limit, run before the body is read.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeyAuth } from '../accounts/api-key-auth.js';
import type { Clock } from '../clock.js';
import type { Account } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { RateLimiter } from './rate-limit.js';

export interface AuthContext {
  account: Account;
  apiKeyId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** The caller's account; only valid inside routes registered behind `apiKeyHook`. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new Error('route is missing the authentication hook');
  return request.auth;
}

export function apiKeyHook(auth: ApiKeyAuth, limiter: RateLimiter, clock: Clock) {
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    // Spec: "The API key must never be placed in browser code". A browser always sends Origin on
    // cross-origin and on POST requests; refusing those makes a leaked-into-frontend key fail loudly.
    if (key !== undefined && request.headers.origin !== undefined) {
      throw new AppError(
        'browser_request_refused',
        'API keys must only be used from servers, never from browser code; call txmail from your backend',
      );
    }
    const found = await auth.authenticate(key);
    request.auth = { account: found.account, apiKeyId: found.key.id };
    if (!limiter.enabled) return;
    const d = await limiter.take(found.key.id, found.account.id, found.account.plan, clock.now());
    reply.header('RateLimit-Limit', String(d.limit));
    reply.header('RateLimit-Remaining', String(d.remaining));
    reply.header('RateLimit-Reset', String(d.resetSeconds));
    if (!d.allowed) {
      throw new AppError(
        'rate_limit_exceeded',
        d.scope === 'key'
          ? `this API key is limited to ${d.limit} requests in a burst; slow down`
          : `this account (${found.account.plan} plan) is limited to ${d.limit} requests in a burst across its keys; slow down`,
        {
          'Retry-After': String(d.retryAfterSeconds),
        },
      );
    }
  };
}
