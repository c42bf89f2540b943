// What one push's result does to its outbox row and its endpoint. Pure: the clock is a parameter.
import type { WebhookOutboxStatus } from '../db/schema.js';
import { classifyWebhookResponse, nextWebhookAttemptAt, parseRetryAfter } from './retry-policy.js';

export interface PushResult {
  statusCode: number | null;
  retryAfter: string | undefined;
}

export interface PushDecision {
  status: WebhookOutboxStatus;
  nextAttemptAt: number | null;
  /** Why the endpoint is disabled now, when it is. */
  disable?: string;
}

export function decidePush(
  result: PushResult,
  attemptsMade: number,
  now: number,
  schedule: readonly number[],
): PushDecision {
  switch (classifyWebhookResponse(result.statusCode)) {
    case 'success':
      return { status: 'delivered', nextAttemptAt: null };
    case 'gone':
      // 410 Gone: the receiver says this endpoint will never take events again.
      return { status: 'failed', nextAttemptAt: null, disable: 'it answered 410 Gone' };
    case 'retry': {
      const next = nextWebhookAttemptAt(attemptsMade, now, parseRetryAfter(result.retryAfter, now), schedule);
      if (next !== null) return { status: 'pending', nextAttemptAt: next };
      return {
        status: 'failed',
        nextAttemptAt: null,
        disable: `${attemptsMade} attempts to deliver an event failed (last: ${result.statusCode === null ? 'no response' : `HTTP ${result.statusCode}`})`,
      };
    }
  }
}
