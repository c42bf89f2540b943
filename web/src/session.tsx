// Who is logged in, shared by every page; loaded from GET /api/auth/session at start.
import { createContext, useContext } from 'react';
import type { ApiBody } from './api.js';
import type { SessionMember } from './api-types.js';

export type { SessionAccount, SessionMember } from './api-types.js';
/** GET /api/auth/session: who is logged in (account null when nobody), the CSRF token, sign-up. */
export type SessionInfo = ApiBody<'/api/auth/session', 'get'>;
/** A member's role (docs/API.md, members and roles). */
export type Role = SessionMember['role'];

export interface SessionContextValue {
  session: SessionInfo;
  /** Adopt the answer of sign-up, log-in or GET /api/auth/session. */
  setSession(info: SessionInfo): void;
  refresh(): Promise<void>;
}

export const SessionContext = createContext<SessionContextValue | null>(null);

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionContext');
  return value;
}
