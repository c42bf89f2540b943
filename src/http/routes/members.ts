// /api/members: the account's people and roles (docs/design.md §2), and each member's sessions. Session
// only (an API key cannot invite people); who may call which is http/permissions.ts's.
import type { FastifyInstance } from 'fastify';
import { memberJson, type Members } from '../../accounts/members.js';
import type { ActiveSession, Sessions } from '../../accounts/sessions.js';
import type { MemberRole, SessionRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { sessionOf } from '../authenticate.js';
import { ASSIGNABLE_ROLES } from '../permissions.js';
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

const READ = [...AUTHENTICATED, ...SESSION_ONLY] as const;
const CHANGE = [...AUTHENTICATED, ...STATE_CHANGING, ...SESSION_ONLY] as const;

const role = { type: 'string', enum: [...ASSIGNABLE_ROLES] } as const;

/** A session as the API shows it: `id` is the first 32 hex digits of its id hash. */
export function sessionJson(s: SessionRow, currentIdHash: string) {
  return {
    id: s.id_hash.slice(0, 32),
    created_at: new Date(s.created_at).toISOString(),
    last_seen_at: new Date(s.last_seen_at).toISOString(),
    expires_at: new Date(s.expires_at).toISOString(),
    current: s.id_hash === currentIdHash,
    ip: s.ip,
    user_agent: s.user_agent,
  };
}

/** The member whose sessions are asked for: the owner's are the owner's own business. */
async function memberForSessions(members: Members, session: ActiveSession, id: string) {
  const member = await members.find(session.account, id);
  if (member.role === 'owner' && session.member.role !== 'owner') {
    throw new AppError('forbidden', "only the owner sees and ends the owner's sessions");
  }
  return member;
}

export function registerMemberRoutes(
  app: FastifyInstance,
  deps: { members: Members; sessions: Sessions },
): void {
  app.get(
    '/api/members',
    {
      schema: {
        summary: "Dashboard: the account's members and invitations",
        response: responses({ 200: json('The members, the owner first', list(ref('Member'))) }, READ),
      },
    },
    async (request) => {
      const { account } = sessionOf(request);
      return { data: (await deps.members.list(account)).map(memberJson) };
    },
  );

  app.post<{ Body: { email: string; role: MemberRole } }>(
    '/api/members',
    {
      schema: {
        summary: 'Dashboard: invite a member by email (a link valid 7 days, mailed from onboarding@)',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['email', 'role'],
          properties: { email: { type: 'string', minLength: 3, maxLength: 320 }, role },
        },
        response: responses({ 201: json('Invited; the link is mailed', ref('Member')) }, [
          ...CHANGE,
          'validation_error',
          'member_exists',
        ]),
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const m = await deps.members.invite(
        session.account,
        request.body.email,
        request.body.role,
        session.member,
      );
      return reply.code(201).send(memberJson(m));
    },
  );

  app.patch<{ Params: { id: string }; Body: { role: MemberRole } }>(
    '/api/members/:id',
    {
      schema: {
        summary: "Dashboard: change an invited member's role",
        body: { type: 'object', additionalProperties: false, required: ['role'], properties: { role } },
        response: responses({ 200: json('The member with its new role', ref('Member')) }, [
          ...CHANGE,
          'validation_error',
          'not_found',
        ]),
      },
    },
    async (request) => {
      const { account } = sessionOf(request);
      return memberJson(await deps.members.setRole(account, request.params.id, request.body.role));
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/members/:id',
    {
      schema: {
        summary: 'Dashboard: remove an invited member (its sessions end at once)',
        response: responses({ 204: noContent }, [...CHANGE, 'not_found']),
      },
    },
    async (request, reply) => {
      const { account } = sessionOf(request);
      await deps.members.remove(account, request.params.id);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/members/:id/invitation',
    {
      schema: {
        summary:
          'Dashboard: mail an invitation again, with a new link valid 7 days (the old one stops working)',
        response: responses({ 200: json('Mailed; the member with its new expiry', ref('Member')) }, [
          ...CHANGE,
          'not_found',
          'invitation_accepted',
          'rate_limit_exceeded',
        ]),
      },
    },
    async (request) => {
      const session = sessionOf(request);
      return memberJson(await deps.members.resendInvite(session.account, request.params.id, session.member));
    },
  );

  app.get<{ Params: { id: string } }>(
    '/api/members/:id/sessions',
    {
      schema: {
        summary: "Dashboard: a member's live sessions (the owner's: the owner only)",
        response: responses({ 200: json('The live sessions', list(ref('MemberSession'))) }, [
          ...READ,
          'forbidden',
          'not_found',
        ]),
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const member = await memberForSessions(deps.members, session, request.params.id);
      const rows = await deps.sessions.listOf(member.id);
      return { data: rows.map((s) => sessionJson(s, session.idHash)) };
    },
  );

  app.delete<{ Params: { id: string; sid: string } }>(
    '/api/members/:id/sessions/:sid',
    {
      schema: {
        summary: "Dashboard: end one of a member's sessions (the owner's: the owner only)",
        response: responses({ 204: noContent }, [...CHANGE, 'forbidden', 'not_found']),
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const member = await memberForSessions(deps.members, session, request.params.id);
      if (!(await deps.sessions.revokeOf(member.id, request.params.sid))) {
        throw new AppError('not_found', `no live session "${request.params.sid}" of this member`);
      }
      return reply.code(204).send();
    },
  );
}
