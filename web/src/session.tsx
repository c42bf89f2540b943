// Who is logged in, shared by every page; loaded from GET /api/auth/session at start.
import { createContext, useContext } from 'react';

export interface SessionAccount {
  id: string;
  email: string;
  email_verified: boolean;
  plan: 'free' | 'pro' | 'scale';
  state: 'sandbox' | 'production';
  /** The owner requires two-factor sign-in of every member. */
  require_totp: boolean;
}

export type Role = 'owner' | 'admin' | 'developer' | 'viewer';

/** Who is signed in (docs/API.md, members and roles). */
export interface SessionMember {
  id: string;
  email: string;
  role: Role;
  totp_enabled: boolean;
  /** The account requires two-factor sign-in and this member has not set it up: nothing else works. */
  must_enrol_totp: boolean;
}

export interface SessionInfo {
  account: SessionAccount | null;
  /** Present with a session. */
  member?: SessionMember;
  csrf_token: string | null;
  signup: 'open' | 'closed';
}

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
