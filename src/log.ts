// Structured JSON logs. Secrets and message bodies never reach them: request logs carry no headers or
// bodies, and the paths below are redacted should an object carrying them ever be logged.
import pino, { type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers["x-api-key"]',
        'req.headers.cookie',
        'req.headers.authorization',
        'apiKey',
        'password',
        'html',
        'message.html',
      ],
      censor: '[redacted]',
    },
  });
}

// The scheme and authority of a request target in the absolute form (RFC 9112 §3.2.2, "GET
// http://user:password@host/path"), the user information included.
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i;

/**
 * A request target as logs may write it: the path alone, without its query string or a fragment.
 * Verification and reset links carry their token in the query, and any client may put a secret in
 * either, or in the user information of a target in the absolute form.
 */
export function pathForLog(target: string): string {
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  const absolute = ABSOLUTE_FORM.exec(path);
  return absolute ? path.slice(absolute[0].length) || '/' : path;
}

/**
 * A URL as logs may write it: origin and path only. Customers put their webhook endpoint's secret in
 * its query (or in user:password@), and the fragment is theirs too.
 */
export function urlForLog(url: string): string {
  try {
    const u = new URL(url);
    return u.origin + u.pathname;
  } catch {
    return '(not a URL)';
  }
}
