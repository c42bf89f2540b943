// What the session's member may do, from the server's own tables (src/http/permissions.ts, bundled
// into the dashboard as the bounce categories are): the navigation and the forms of a page follow it,
// so the dashboard never offers what the server would refuse. The server checks every request anyway.
import { allows, ROUTE_RULES, ruleFor } from '../../src/http/permissions.js';
import { useSession, type Role, type SessionInfo } from './session.js';

/** Whether `role` may call `route` (`'PATCH /api/account'`, as the table writes it). */
export function may(role: Role, route: string): boolean {
  // A route missing from the table is owner-only on the server; here it is a typo to catch at once.
  if (ROUTE_RULES[route] === undefined) throw new Error(`no route ${route} in the permission table`);
  const [method, pattern] = route.split(' ');
  return allows(role, ruleFor(method!, pattern).permission);
}

/** The session's role: a session without a member (made before members existed) is the owner's. */
export function roleOf(session: SessionInfo): Role {
  return session.member?.role ?? 'owner';
}

/** `may` for the session's member. */
export function useMay(): (route: string) => boolean {
  const role = roleOf(useSession().session);
  return (route) => may(role, route);
}
