// When to push an event again, and what an endpoint's answer means (docs/design.md §8). Pure: the clock is a
// parameter.

/** Delays before each attempt: immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (Svix's). */
export const WEBHOOK_RETRY_SCHEDULE_MS = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  10 * 3600_000,
];

/** A Retry-After longer than this is capped: an endpoint cannot park events for days. */
export const MAX_RETRY_AFTER_MS = 24 * 3600_000;

export type WebhookVerdict = 'success' | 'gone' | 'retry';

/** 2xx is success; 410 Gone means the endpoint is retired; everything else (3xx too) is retried. */
export function classifyWebhookResponse(statusCode: number | null): WebhookVerdict {
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return 'success';
  if (statusCode === 410) return 'gone';
  return 'retry';
}

/**
 * When to try again after `attemptsMade` failed attempts, or null when the schedule is spent. A
 * Retry-After from the endpoint is honoured when it asks for more time than the schedule gives.
 */
export function nextWebhookAttemptAt(
  attemptsMade: number,
  now: number,
  retryAfterMs: number | undefined,
  schedule: readonly number[] = WEBHOOK_RETRY_SCHEDULE_MS,
): number | null {
  if (attemptsMade >= schedule.length) return null;
  const scheduled = schedule[attemptsMade]!;
  const asked = retryAfterMs === undefined ? 0 : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  return now + Math.max(scheduled, asked);
}

/** An HTTP date is 29 characters (RFC 9110 §5.6.7); anything much longer is malformed, unread. */
const MAX_RETRY_AFTER_LENGTH = 64;

/** Retry-After (RFC 9110 §10.2.3): delay-seconds or an HTTP date; undefined when absent or malformed. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.length > MAX_RETRY_AFTER_LENGTH) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
