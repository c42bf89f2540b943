// POST /api/emails/:id/resend (docs/API.md): queues a copy of a message as a new message, through the
// accept path like any send (its policy, quota and suppression check apply: a suppressed recipient is
// refused), linked both ways: the copy's email.queued event and `resent_from` name the original,
// whose detail lists its copies. An Idempotency-Key makes a retried re-send answer the first copy.
import type { FastifyInstance } from 'fastify';
import type { MessagesRepo } from '../../db/messages-repo.js';
import { AppError } from '../../errors.js';
import type { AcceptService } from '../../messages/accept.js';
import { sendableAddress } from '../../messages/address.js';
import { sealedContent } from '../../messages/system-mail.js';
import { authOf } from '../authenticate.js';
import { idempotencyKeyOf } from '../idempotency-key.js';
import { AUTHENTICATED, json, ref, responses, STATE_CHANGING } from '../schemas/responses.js';
import { isId } from '../../ids.js';

export function registerResendRoute(
  app: FastifyInstance,
  deps: { accept: AcceptService; messages: MessagesRepo },
): void {
  app.post<{ Params: { id: string } }>(
    '/api/emails/:id/resend',
    {
      schema: {
        summary: 'Queue a copy of a message as a new message',
        response: responses({ 200: json('The copy, queued', ref('ResendResult')) }, [
          ...AUTHENTICATED,
          ...STATE_CHANGING,
          'not_found',
          'validation_error',
          'invalid_idempotency_key',
          'idempotency_in_progress',
          'idempotency_key_reused',
          'account_suspended',
          'account_paused',
          'account_sandboxed',
          'domain_not_verified',
          'recipient_suppressed',
          'monthly_quota_exceeded',
          'service_unavailable',
        ]),
        params: {
          type: 'object',
          properties: { id: { type: 'string', maxLength: 64 } },
          required: ['id'],
        },
      },
    },
    async (request) => {
      const { account } = authOf(request);
      const idempotencyKey = idempotencyKeyOf(request);
      const id = request.params.id;
      const original = isId(id) ? await deps.messages.get(account.id, id) : undefined;
      if (!original) throw new AppError('not_found', `no email with id "${id}" in this account`);
      if (original.status === 'test') {
        throw new AppError(
          'validation_error',
          'a test send was never sent and keeps at most 64 KiB of its HTML; send it with POST /api/email/send',
        );
      }
      // Asked first: a sealed message's content is removed once it is final, and that is not the reason.
      // A copy would be an ordinary message of the log, its sign-in link readable by every member.
      if (sealedContent(await deps.messages.queuedEventData(account.id, id))) {
        throw new AppError(
          'validation_error',
          `email "${id}" carries a sign-in link meant for its recipient alone: it cannot be re-sent`,
        );
      }
      if (original.content_removed_at !== null) {
        throw new AppError(
          'validation_error',
          `the content of email "${id}" was removed (content retention): there is nothing to re-send`,
        );
      }
      const answer = await deps.accept
        .accept({
          account,
          route: 'send',
          body: {
            from: sendableAddress(original.from_name, original.from_email),
            to: sendableAddress(original.to_name, original.to_email),
            subject: original.subject,
            message: original.html,
          },
          idempotencyKey,
          resentFrom: original.id,
        })
        .catch((err: unknown) => {
          if (err instanceof AppError) throw err;
          request.log.error({ err }, 'could not store the message');
          throw new AppError(
            'service_unavailable',
            'the message could not be stored and was not accepted; retry later',
          );
        });
      // After the copy's commit: the event already names the original, the column makes it listable.
      // The copy is queued whatever happens here: failing the request would invite a second copy.
      await deps.messages.markResent(account.id, answer.id, original.id).catch((err: unknown) => {
        request.log.warn({ err, emailId: answer.id }, 'could not link the copy to its original');
      });
      return { ...answer, resent_from: original.id };
    },
  );
}
