// POST /api/email/send and POST /api/email/send/test (docs/design.md §3; docs/API.md).
import type { FastifyInstance } from 'fastify';
import { AppError, type ErrorCode } from '../../errors.js';
import type { AcceptService, SendRoute } from '../../messages/accept.js';
import { sendRequestSchema, type SendRequestBody } from '../../messages/send-request.js';
import { authOf } from '../authenticate.js';
import { idempotencyKeyOf } from '../idempotency-key.js';
import { AUTHENTICATED, json, ref, responses, STATE_CHANGING } from '../schemas/responses.js';

export function registerSendRoutes(app: FastifyInstance, accept: AcceptService): void {
  const route = (url: string, kind: SendRoute, summary: string, refusals: ErrorCode[]) =>
    app.post<{ Body: SendRequestBody }>(
      url,
      {
        schema: {
          summary,
          body: sendRequestSchema,
          response: responses({ 200: json('Accepted: durably stored', ref('SendResult')) }, [
            ...AUTHENTICATED,
            ...STATE_CHANGING,
            'validation_error',
            'invalid_idempotency_key',
            'account_suspended',
            'idempotency_in_progress',
            'idempotency_key_reused',
            'service_unavailable',
            ...refusals,
          ]),
        },
      },
      async (request) => {
        const { account } = authOf(request);
        const idempotencyKey = idempotencyKeyOf(request);
        try {
          return await accept.accept({ account, route: kind, body: request.body, idempotencyKey });
        } catch (err) {
          if (err instanceof AppError) throw err;
          request.log.error({ err }, 'could not store the message');
          throw new AppError(
            'service_unavailable',
            'the message could not be stored and was not accepted; retry later',
          );
        }
      },
    );
  route('/api/email/send', 'send', 'Queue one email for delivery', [
    'account_paused',
    'account_sandboxed',
    'domain_not_verified',
    'recipient_suppressed',
    'monthly_quota_exceeded',
  ]);
  // What a real send is refused for is a warning here (docs/API.md).
  route('/api/email/send/test', 'test', 'Record a send request in the logs without delivering it', [
    'test_quota_exceeded',
  ]);
}
