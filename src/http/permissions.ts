// Who may call which route with a dashboard session (docs/design.md §2, "Members and roles"): ONE table
// from route (method + pattern) to the permission it needs, and one from role to permissions, applied
// by one hook (access-hooks.ts checkPermission) for session-authenticated requests and for keys an
// invited member made (bounded by the maker's role); any other key keeps the rights keys always had. A route missing from the table needs `account.manage`, which only
// the owner has: a new route is owner-only until it is given its entry (a test lists every registered
// /api route against this table). The dashboard bundles this file (web/src/permissions.ts) to show each
// member what its role may use: it imports types only.
import type { MemberRole } from '../db/schema.js';
import type { ErrorCode } from '../errors.js';

export type Permission =
  | 'self'
  | 'overview.read'
  | 'logs.read'
  | 'send'
  | 'keys.read'
  | 'keys.write'
  /** Revoke any key of the account; without it, a member revokes only the keys it made. */
  | 'keys.manage'
  | 'domains.read'
  | 'domains.write'
  | 'webhooks.read'
  | 'webhooks.test'
  | 'webhooks.write'
  | 'webhooks.secret'
  | 'suppressions.read'
  | 'suppressions.write'
  | 'members.read'
  | 'members.write'
  | 'audit.read'
  | 'account.manage';

/** What a route needs, and what its audit entry is called (every change and every secret reveal). */
export interface RouteRule {
  permission: Permission;
  /** The audit log's action for a successful call; undefined: not audited (reads). */
  audit?: string;
  /**
   * Audited only when the answer has this status: a route that answers 200 when nothing changed (the
   * address was suppressed already) and 201 when it made something.
   */
  auditOnly?: number;
}

/** Routes without a session (registered outside the authentication hook). */
export const PUBLIC = 'public' as const;

/** `METHOD /pattern` → rule, for every /api route. */
export const ROUTE_RULES: Record<string, RouteRule | typeof PUBLIC> = {
  // Sign-in, before any session.
  'GET /api/auth/session': PUBLIC,
  'POST /api/auth/signup': PUBLIC,
  'POST /api/auth/login': PUBLIC,
  'POST /api/auth/verify': PUBLIC,
  'POST /api/auth/password-reset': PUBLIC,
  'POST /api/auth/password-reset/confirm': PUBLIC,
  'POST /api/auth/invitation': PUBLIC,
  'POST /api/auth/accept-invite': PUBLIC,
  // One's own session, password and second factor: every role.
  'POST /api/auth/logout': { permission: 'self' },
  'POST /api/auth/password': { permission: 'self', audit: 'member.password_changed' },
  'POST /api/auth/totp/setup': { permission: 'self' },
  'POST /api/auth/totp/confirm': { permission: 'self', audit: 'member.totp_enabled' },
  'POST /api/auth/totp/disable': { permission: 'self', audit: 'member.totp_disabled' },
  'GET /api/auth/sessions': { permission: 'self' },
  'DELETE /api/auth/sessions/:id': { permission: 'self', audit: 'session.revoked' },
  // The account's address and security settings: the owner's.
  'POST /api/auth/resend-verification': { permission: 'account.manage' },
  'PATCH /api/account/security': { permission: 'account.manage', audit: 'account.security_changed' },
  // The account's settings (how long a final message's content is kept).
  'PATCH /api/account': { permission: 'account.manage', audit: 'account.updated' },
  // Overview and logs: every role.
  'GET /api/account': { permission: 'overview.read' },
  'GET /api/account/activity': { permission: 'overview.read' },
  'GET /api/account/notices': { permission: 'overview.read' },
  'GET /api/emails': { permission: 'logs.read' },
  'GET /api/emails/:id': { permission: 'logs.read' },
  // The raw message as sent (message/rfc822); the log's search and CSV export are GET /api/emails.
  'GET /api/emails/:id/raw': { permission: 'logs.read' },
  // Sending (a session sends the guided test; the send routes work with a session too).
  'POST /api/email/send': { permission: 'send' },
  'POST /api/email/send/test': { permission: 'send' },
  'POST /api/guided-test': { permission: 'send' },
  'POST /api/emails/:id/resend': { permission: 'send', audit: 'email.resent' },
  'GET /api/api-keys': { permission: 'keys.read' },
  'POST /api/api-keys': { permission: 'keys.write', audit: 'api_key.created' },
  'DELETE /api/api-keys/:id': { permission: 'keys.write', audit: 'api_key.revoked' },
  'GET /api/domains': { permission: 'domains.read' },
  'GET /api/domains/:id': { permission: 'domains.read' },
  'POST /api/domains': { permission: 'domains.write', audit: 'domain.created' },
  'PATCH /api/domains/:id': { permission: 'domains.write', audit: 'domain.updated' },
  'POST /api/domains/:id/verify': { permission: 'domains.write', audit: 'domain.verify_requested' },
  'POST /api/domains/:id/dkim/rotate': { permission: 'domains.write', audit: 'dkim_key.rotated' },
  'DELETE /api/domains/:id': { permission: 'domains.write', audit: 'domain.deleted' },
  'GET /api/webhooks': { permission: 'webhooks.read' },
  'GET /api/webhooks/:id': { permission: 'webhooks.read' },
  'GET /api/webhooks/:id/deliveries': { permission: 'webhooks.read' },
  'POST /api/webhooks': { permission: 'webhooks.write', audit: 'webhook.created' },
  'PATCH /api/webhooks/:id': { permission: 'webhooks.write', audit: 'webhook.updated' },
  'DELETE /api/webhooks/:id': { permission: 'webhooks.write', audit: 'webhook.deleted' },
  'GET /api/webhooks/:id/secret': { permission: 'webhooks.secret', audit: 'webhook.secret_revealed' },
  'POST /api/webhooks/:id/rotate-secret': { permission: 'webhooks.write', audit: 'webhook.secret_rotated' },
  'POST /api/webhooks/:id/test': { permission: 'webhooks.test', audit: 'webhook.tested' },
  'POST /api/webhooks/:id/replay': { permission: 'webhooks.test', audit: 'webhook.replayed' },
  'POST /api/events/:id/replay': { permission: 'webhooks.test', audit: 'event.replayed' },
  'GET /api/suppressions': { permission: 'suppressions.read' },
  'POST /api/suppressions': { permission: 'suppressions.write', audit: 'suppression.added', auditOnly: 201 },
  'DELETE /api/suppressions/:address': { permission: 'suppressions.write', audit: 'suppression.removed' },
  'GET /api/members': { permission: 'members.read' },
  'POST /api/members': { permission: 'members.write', audit: 'member.invited' },
  'PATCH /api/members/:id': { permission: 'members.write', audit: 'member.role_changed' },
  'DELETE /api/members/:id': { permission: 'members.write', audit: 'member.removed' },
  'POST /api/members/:id/invitation': { permission: 'members.write', audit: 'member.invitation_resent' },
  'GET /api/members/:id/sessions': { permission: 'members.read' },
  'DELETE /api/members/:id/sessions/:sid': { permission: 'members.write', audit: 'session.revoked' },
  'GET /api/audit': { permission: 'audit.read' },
};

const VIEWER: Permission[] = ['self', 'overview.read', 'logs.read'];
const DEVELOPER: Permission[] = [
  ...VIEWER,
  'send',
  'keys.read',
  'keys.write',
  'domains.read',
  'webhooks.read',
  'webhooks.test',
  'suppressions.read',
];
const ADMIN: Permission[] = [
  ...DEVELOPER,
  'keys.manage',
  'domains.write',
  'webhooks.write',
  'webhooks.secret',
  'suppressions.write',
  'members.read',
  'members.write',
  'audit.read',
];

export const ROLE_PERMISSIONS: Record<MemberRole, ReadonlySet<Permission>> = {
  viewer: new Set(VIEWER),
  developer: new Set(DEVELOPER),
  admin: new Set(ADMIN),
  owner: new Set([...ADMIN, 'account.manage']),
};

export const ROLES: readonly MemberRole[] = ['owner', 'admin', 'developer', 'viewer'];
/** The roles an invitation or a role change may give: an account has one owner. */
export const ASSIGNABLE_ROLES: readonly MemberRole[] = ['admin', 'developer', 'viewer'];

/** The rule of a route; an unknown route is owner-only (`account.manage`). */
export function ruleFor(method: string, pattern: string | undefined): RouteRule {
  // Fastify answers HEAD with the GET route.
  const m = method === 'HEAD' ? 'GET' : method;
  const rule = pattern === undefined ? undefined : ROUTE_RULES[`${m} ${pattern}`];
  if (rule === undefined || rule === PUBLIC) return { permission: 'account.manage' };
  return rule;
}

export function allows(role: MemberRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

/**
 * Routes a member who must enrol in two-factor sign-in may still call: who am I, set up and confirm
 * the second factor, log out.
 */
export const ENROLMENT_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/auth/logout',
  'POST /api/auth/totp/setup',
  'POST /api/auth/totp/confirm',
]);

/**
 * The errors the role check (access-hooks.ts) can answer on a route, for its OpenAPI responses: the
 * enrolment gate everywhere but the enrolment routes, `forbidden` unless every role may call it.
 */
export function roleCheckErrors(method: string, pattern: string): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (!ENROLMENT_ROUTES.has(`${method === 'HEAD' ? 'GET' : method} ${pattern}`)) {
    codes.push('totp_enrolment_required');
  }
  if (!allows('viewer', ruleFor(method, pattern).permission)) codes.push('forbidden');
  return codes;
}
