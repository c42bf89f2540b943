// The dashboard's session cookie: HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site
// subrequests or POSTs), Secure when the dashboard is served over https, valid for the whole site.
import { SESSION_TTL_MS } from '../accounts/sessions.js';

export const SESSION_COOKIE = 'txmail_session';

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
  const attrs = [
    `${SESSION_COOKIE}=${id}`,
    'Path=/',
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
