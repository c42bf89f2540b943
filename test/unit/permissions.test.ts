// The role table's defaults: a route another change adds before it has an entry is the owner's alone
// for sessions (API keys keep their rights), and its changes are still audited under the route.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { MemberRole } from '../../src/db/schema.js';
import { auditAction, checkPermission } from '../../src/http/access-hooks.js';

function request(method: string, url: string, role: MemberRole | null, requireTotp = false, totp = true) {
  return {
    method,
    routeOptions: { url },
    auth: {
      apiKeyId: role === null ? 'key1' : null,
      apiKeyRole: null,
      session:
        role === null
          ? null
          : {
              member: { role, totp_enabled_at: totp ? 1 : null },
              account: { require_totp_at: requireTotp ? 1 : null },
            },
    },
  } as unknown as FastifyRequest;
}

/** A call with a key an invited member of this role made. */
function keyRequest(method: string, url: string, role: MemberRole) {
  return {
    method,
    routeOptions: { url },
    auth: { apiKeyId: 'key2', apiKeyRole: role, session: null },
  } as unknown as FastifyRequest;
}

function outcome(req: FastifyRequest): string {
  let result = 'not called';
  checkPermission(req, {} as FastifyReply, (err) => (result = err ? String(err.message) : 'allowed'));
  return result;
}

describe('the permission hook', () => {
  it('lets only the owner call a session route missing from the table; keys keep their rights', () => {
    const route = '/api/not-yet-in-the-table';
    expect(outcome(request('POST', route, 'owner'))).toBe('allowed');
    for (const role of ['admin', 'developer', 'viewer'] as const)
      expect(outcome(request('POST', route, role))).toMatch(/cannot do this \(needs account.manage\)/);
    expect(outcome(request('POST', route, null))).toBe('allowed');
  });

  it('applies the table: a viewer reads the log and cannot make keys; an admin can', () => {
    expect(outcome(request('GET', '/api/emails', 'viewer'))).toBe('allowed');
    expect(outcome(request('HEAD', '/api/emails', 'viewer'))).toBe('allowed');
    expect(outcome(request('POST', '/api/api-keys', 'viewer'))).toMatch(/the viewer role cannot do this/);
    expect(outcome(request('POST', '/api/api-keys', 'admin'))).toBe('allowed');
    expect(outcome(request('PATCH', '/api/account/security', 'admin'))).toMatch(/cannot do this/);
  });

  it("bounds a key an invited member made by the maker's role", () => {
    expect(outcome(keyRequest('POST', '/api/email/send', 'developer'))).toBe('allowed');
    expect(outcome(keyRequest('GET', '/api/emails', 'developer'))).toBe('allowed');
    expect(outcome(keyRequest('POST', '/api/domains', 'developer'))).toMatch(
      /bounded by its maker's role \(developer\), which cannot do this \(needs domains.write\)/,
    );
    expect(outcome(keyRequest('POST', '/api/domains', 'admin'))).toBe('allowed');
    expect(outcome(keyRequest('PATCH', '/api/account', 'admin'))).toMatch(
      /role \(admin\), which cannot do this/,
    );
    expect(outcome(keyRequest('POST', '/api/not-yet-in-the-table', 'admin'))).toMatch(/cannot do this/);
  });

  it('holds a member without two-factor sign-in to enrolment when the account requires it', () => {
    expect(outcome(request('GET', '/api/emails', 'owner', true, false))).toMatch(/requires two-factor/);
    expect(outcome(request('POST', '/api/auth/totp/setup', 'viewer', true, false))).toBe('allowed');
    expect(outcome(request('GET', '/api/emails', 'viewer', true, true))).toBe('allowed');
  });

  it('audits a change without an entry under its route, and never a read', () => {
    expect(auditAction('POST', '/api/not-yet-in-the-table')).toBe('POST /api/not-yet-in-the-table');
    expect(auditAction('POST', '/api/emails/:id/resend')).toBe('email.resent');
    expect(auditAction('PATCH', '/api/account')).toBe('account.updated');
    expect(auditAction('GET', '/api/emails/search')).toBeUndefined();
    expect(auditAction('POST', '/api/api-keys')).toBe('api_key.created');
    expect(auditAction('GET', '/api/webhooks/:id/secret')).toBe('webhook.secret_revealed');
    expect(auditAction('POST', '/api/auth/login')).toBeUndefined();
    // Suppressing an address already suppressed (200) changes nothing: not audited; a new one (201) is.
    expect(auditAction('POST', '/api/suppressions', 201)).toBe('suppression.added');
    expect(auditAction('POST', '/api/suppressions', 200)).toBeUndefined();
  });
});
