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

/**
 * A request target as logs may write it: the path without its query string. Verification and reset
 * links carry their token in the query, and any client may put a secret there.
 */
export function pathForLog(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
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
