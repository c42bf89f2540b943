// A member's own security (two-factor sign-in, sessions), the owner's account security settings, and
// the invitation link (public). docs/design.md §2.
import type { FastifyInstance } from 'fastify';
import type { Audit } from '../../audit/audit.js';
import type { Members } from '../../accounts/members.js';
import type { Sessions } from '../../accounts/sessions.js';
import type { TwoFactor } from '../../accounts/two-factor.js';
import type { MembersRepo } from '../../db/members-repo.js';
import { AppError } from '../../errors.js';
import { sessionOf } from '../authenticate.js';
import {
  AUTHENTICATED,
  json,
  list,
  noContent,
  ref,
  responses,
  SESSION_ONLY,
  STATE_CHANGING,
} from '../schemas/responses.js';
import { sessionCookie, sessionOrigin } from '../session-cookie.js';
import { PUBLIC_BODY, signedInJson } from './auth.js';
import { sessionJson } from './members.js';
import { targetLabel } from '../../audit/target-label.js';

export interface SecurityRouteDeps {
  members: Members;
  membersRepo: MembersRepo;
  sessions: Sessions;
  twoFactor: TwoFactor;
  audit: Audit;
  secureCookies: boolean;
  clock: { now(): number };
}

const object = (required: string[], properties: Record<string, unknown>) =>
  ({ type: 'object', additionalProperties: false, required, properties }) as const;

const CHANGE = [...AUTHENTICATED, ...STATE_CHANGING, ...SESSION_ONLY] as const;

/** POST /api/auth/invitation and /api/auth/accept-invite: outside the authentication hook. */
export function registerAcceptInviteRoute(app: FastifyInstance, deps: SecurityRouteDeps): void {
  // A POST with the token in the body, as accept-invite: never in a URL, so never in an access log.
  app.post<{ Body: { token: string } }>(
    '/api/auth/invitation',
    {
      schema: {
        summary: 'Dashboard: what an invitation link is for (the account, the role), before it is used',
        body: object(['token'], { token: { type: 'string', minLength: 1, maxLength: 200 } }),
        response: responses({ 200: json('The live invitation', ref('Invitation')) }, [
          ...PUBLIC_BODY,
          'invalid_token',
        ]),
      },
    },
    async (request, reply) => {
      const { member, account } = await deps.members.describeInvite(request.body.token);
      return reply.header('Cache-Control', 'no-store').send({
        email: member.email,
        role: member.role,
        account_email: account.email,
        expires_at: new Date(member.invite_expires_at!).toISOString(),
      });
    },
  );

  app.post<{ Body: { token: string; password: string } }>(
    '/api/auth/accept-invite',
    {
      schema: {
        summary: "Dashboard: use an invitation link: sets the member's password and logs in",
        body: object(['token', 'password'], {
          token: { type: 'string', minLength: 1, maxLength: 200 },
          password: { type: 'string', minLength: 1, maxLength: 1024 },
        }),
        response: responses(
          {
            200: json(
              'Joined and logged in: the session cookie is set (no device cookie)',
              object(['account', 'member', 'csrf_token'], {
                account: ref('SessionAccount'),
                member: ref('SessionMember'),
                csrf_token: { type: 'string' },
              }),
            ),
          },
          [...PUBLIC_BODY, 'invalid_token'],
        ),
      },
    },
    async (request, reply) => {
      const { account, member } = await deps.members.accept(request.body.token, request.body.password);
      const session = await deps.sessions.create(account, member, sessionOrigin(request));
      await deps.audit.record({
        accountId: account.id,
        actor: { type: 'member', id: member.id, email: member.email },
        action: 'member.joined',
        target: member.id,
        targetLabel: targetLabel('member', { email: member.email, role: member.role }) ?? null,
        ip: request.ip,
      });
      return reply
        .header('Set-Cookie', sessionCookie(session.id, deps.secureCookies))
        .header('Cache-Control', 'no-store')
        .send(signedInJson(session, deps.sessions.csrfToken(session.id)));
    },
  );
}

export function registerSecurityRoutes(app: FastifyInstance, deps: SecurityRouteDeps): void {
  app.post(
    '/api/auth/totp/setup',
    {
      schema: {
        summary: 'Dashboard: start two-factor sign-in: a new TOTP secret and its otpauth:// URL',
        response: responses({ 200: json('The pending secret', ref('TotpSetup')) }, [
          ...CHANGE,
          'validation_error',
        ]),
      },
    },
    async (request, reply) =>
      reply.header('Cache-Control', 'no-store').send(await deps.twoFactor.setup(sessionOf(request).member)),
  );

  app.post<{ Body: { code: string } }>(
    '/api/auth/totp/confirm',
    {
      schema: {
        summary:
          'Dashboard: confirm with a code from the app; answers the recovery codes, shown once; your other sessions end',
        body: object(['code'], { code: { type: 'string', minLength: 1, maxLength: 20 } }),
        response: responses(
          {
            200: json(
              'Two-factor sign-in is on',
              object(['recovery_codes'], {
                recovery_codes: {
                  type: 'array',
                  items: { type: 'string' },
                  description: 'Each works once instead of a code; shown in this answer only',
                },
              }),
            ),
          },
          [...CHANGE, 'validation_error', 'invalid_code', 'rate_limit_exceeded'],
        ),
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const codes = await deps.twoFactor.confirm(session.member, request.body.code, session.idHash);
      return reply.header('Cache-Control', 'no-store').send({ recovery_codes: codes });
    },
  );

  app.post<{ Body: { code: string } }>(
    '/api/auth/totp/disable',
    {
      schema: {
        summary: 'Dashboard: turn two-factor sign-in off with a code (not while the account requires it)',
        body: object(['code'], { code: { type: 'string', minLength: 1, maxLength: 20 } }),
        response: responses(
          {
            200: json(
              'Two-factor sign-in is off',
              object(['totp_enabled'], { totp_enabled: { type: 'boolean', enum: [false] } }),
            ),
          },
          [...CHANGE, 'validation_error', 'invalid_code', 'rate_limit_exceeded'],
        ),
      },
    },
    async (request) => {
      const { member, account } = sessionOf(request);
      await deps.twoFactor.disable(member, account, request.body.code);
      return { totp_enabled: false };
    },
  );

  app.get(
    '/api/auth/sessions',
    {
      schema: {
        summary: 'Dashboard: your own live sessions',
        response: responses({ 200: json('Your live sessions', list(ref('MemberSession'))) }, [
          ...AUTHENTICATED,
          ...SESSION_ONLY,
        ]),
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const rows = await deps.sessions.listOf(session.member.id);
      return { data: rows.map((s) => sessionJson(s, session.idHash)) };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/auth/sessions/:id',
    {
      schema: {
        summary: 'Dashboard: end one of your own sessions',
        response: responses({ 204: noContent }, [...CHANGE, 'not_found']),
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      if (!(await deps.sessions.revokeOf(session.member.id, request.params.id))) {
        throw new AppError('not_found', `no live session "${request.params.id}" of yours`);
      }
      return reply.code(204).send();
    },
  );

  app.patch<{ Body: { require_totp: boolean } }>(
    '/api/account/security',
    {
      schema: {
        summary: 'Dashboard (owner): require two-factor sign-in of every member',
        body: object(['require_totp'], { require_totp: { type: 'boolean' } }),
        response: responses(
          {
            200: json(
              'The requirement as set',
              object(['require_totp'], { require_totp: { type: 'boolean' } }),
            ),
          },
          [...CHANGE, 'validation_error'],
        ),
      },
    },
    async (request) => {
      const { account, member } = sessionOf(request);
      const on = request.body.require_totp;
      // The owner enrols first: requiring it otherwise would shut the owner out too.
      if (on && member.totp_enabled_at === null) {
        throw new AppError('validation_error', 'turn on two-factor sign-in for yourself before requiring it');
      }
      const at = on ? (account.require_totp_at ?? deps.clock.now()) : null;
      // The audit entry says which way it went; setting it to what it was writes none.
      if (on === (account.require_totp_at !== null)) request.auditUnchanged = true;
      request.auditTarget = on ? 'totp_required' : 'totp_not_required';
      await deps.membersRepo.setRequireTotp(account.id, at);
      return { require_totp: on };
    },
  );
}
