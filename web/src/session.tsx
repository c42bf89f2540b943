// Who is logged in, shared by every page; loaded from GET /api/auth/session at start.
import { createContext, useContext } from 'react';

export interface SessionAccount {
  id: string;
  email: string;
  email_verified: boolean;
  plan: 'free' | 'pro' | 'scale';
  state: 'sandbox' | 'production';
}

export interface SessionInfo {
  account: SessionAccount | null;
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
