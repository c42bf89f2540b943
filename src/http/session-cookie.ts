// The dashboard's cookies, both HttpOnly (no script reads them), SameSite=Lax (not sent on cross-site
// subrequests or POSTs) and Secure when the dashboard is served over https: the session, valid for the
// whole site, and the device cookie (accounts/login-devices.ts), sent only to the log-in route.
import { DEVICE_TTL_MS } from '../accounts/login-devices.js';
import { SESSION_TTL_MS, type SessionOrigin } from '../accounts/sessions.js';

export const SESSION_COOKIE = 'txmail_session';
export const DEVICE_COOKIE = 'txmail_device';
/** The only route that reads the device cookie: no other request carries it. */
const DEVICE_COOKIE_PATH = '/api/auth/login';

/** The value of cookie `name` in a Cookie header (the first one, as browsers send the most specific first). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function sessionCookie(id: string, secure: boolean, maxAgeMs = SESSION_TTL_MS): string {
  return cookie(SESSION_COOKIE, id, '/', maxAgeMs, secure);
}

/** Remembers the browser for log-ins; it outlives log-out, which ends the session only. */
export function deviceCookie(id: string, secure: boolean, maxAgeMs = DEVICE_TTL_MS): string {
  return cookie(DEVICE_COOKIE, id, DEVICE_COOKIE_PATH, maxAgeMs, secure);
}

function cookie(name: string, value: string, path: string, maxAgeMs: number, secure: boolean): string {
  const attrs = [
    `${name}=${value}`,
    `Path=${path}`,
    `Max-Age=${Math.max(0, Math.floor(maxAgeMs / 1000))}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (secure) attrs.push('Secure');
  return attrs.join('; ');
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', secure, 0);
}

/**
 * Where a session is started from, as the Security and Members pages show it: the client's address
 * (behind TXMAIL_TRUST_PROXY, the forwarded one) and its User-Agent.
 */
export function sessionOrigin(request: {
  ip: string;
  headers: { 'user-agent'?: string | undefined };
}): SessionOrigin {
  return { ip: request.ip, userAgent: request.headers['user-agent'] };
}
