// POST /api/guided-test: the guided test (docs/design.md §2). One real message from onboarding@<test domain> to the
// account's (verified) signup address; it works in the sandbox. The dashboard then polls
// GET /api/emails/:id to show its timeline.
import type { FastifyInstance } from 'fastify';
import type { AccountMail } from '../../accounts/account-mail.js';
import { guidedTestMail } from '../../accounts/account-mail-content.js';
import type { Clock } from '../../clock.js';
import type { MessagesRepo } from '../../db/messages-repo.js';
import { AppError, rateLimited } from '../../errors.js';
import { sessionOf } from '../authenticate.js';
import { AUTHENTICATED, json, responses, SESSION_ONLY, STATE_CHANGING } from '../schemas/responses.js';

const sentSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'status', 'from', 'to'],
  properties: {
    id: { type: 'string', description: 'Follow it with GET /api/emails/:id' },
    status: { type: 'string', enum: ['queued'] },
    from: { type: 'string' },
    to: { type: 'string', description: 'The signup address' },
  },
} as const;

/** Mail from onboarding@ per account and hour (tests, verification and reset links together). */
const MAX_PER_HOUR = 10;

export function registerGuidedTestRoutes(
  app: FastifyInstance,
  deps: { mail: AccountMail; messages: MessagesRepo; clock: Clock },
): void {
  app.post(
    '/api/guided-test',
    {
      schema: {
        summary: 'Dashboard: send one real message from the test domain to the signup address',
        response: responses({ 200: json('Queued', sentSchema) }, [
          ...AUTHENTICATED,
          ...STATE_CHANGING,
          ...SESSION_ONLY,
          'email_not_verified',
        ]),
      },
    },
    async (request) => {
      const { account } = sessionOf(request);
      if (account.email_verified_at === null) {
        throw new AppError(
          'email_not_verified',
          `verify ${account.email} first: open the link emailed at sign-up (the guided test sends real mail there)`,
        );
      }
      const now = deps.clock.now();
      // It sends real mail from the service's own domain: a cap keeps that domain's reputation safe.
      if ((await deps.messages.countFrom(account.id, deps.mail.from, now - 3600_000)) >= MAX_PER_HOUR) {
        throw rateLimited(
          `the guided test runs while txmail has sent this account fewer than ${MAX_PER_HOUR} mails of its own in the last hour (guided tests, sign-in links, invitations and notices all count); try it later`,
          3600,
        );
      }
      const id = await deps.mail.send(account, guidedTestMail(new Date(now)));
      return { id, status: 'queued', from: deps.mail.from, to: account.email };
    },
  );
}
