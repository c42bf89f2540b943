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
