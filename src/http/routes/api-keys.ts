// GET|POST /api/api-keys, DELETE /api/api-keys/:id: the dashboard's key management. Session only: a
// leaked API key must not be able to mint more keys (outliving its own revocation) or revoke its owner's.
import type { FastifyInstance } from 'fastify';
import type { ApiKeyAuth } from '../../accounts/api-key-auth.js';
import type { Accounts } from '../../accounts/accounts.js';
import type { Clock } from '../../clock.js';
import type { AccountsRepo } from '../../db/accounts-repo.js';
import type { ApiKeyRow, MemberRow } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { sessionOf } from '../authenticate.js';
import { allows } from '../permissions.js';
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

const createBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, maxLength: 100, description: 'Default "default"' } },
} as const;

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function keyJson(k: ApiKeyRow, madeBy: string | null) {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    created_at: iso(k.created_at),
    last_used_at: iso(k.last_used_at),
    made_by: madeBy,
    role: k.role,
  };
}

/**
 * Whether a member may revoke a key: an owner or admin any of the account's, a developer only those it
 * made. A developer manages its own keys; the owner's, the operator's and another member's keys run
 * someone else's servers (docs/API.md, "Members and roles").
 */
function mayRevoke(member: Pick<MemberRow, 'id' | 'role'>, key: Pick<ApiKeyRow, 'member_id'>): boolean {
  return allows(member.role, 'keys.manage') || key.member_id === member.id;
}

export function registerApiKeyRoutes(
  app: FastifyInstance,
  deps: { accounts: Accounts; repo: AccountsRepo; auth: ApiKeyAuth; clock: Clock },
): void {
  app.get(
    '/api/api-keys',
    {
      schema: {
        summary: "Dashboard: the account's live API keys",
        response: responses({ 200: json('The keys', list(ref('ApiKey'))) }, [
          ...AUTHENTICATED,
          ...SESSION_ONLY,
        ]),
      },
    },
    async (request) => {
      const { account, member } = sessionOf(request);
      const keys = await deps.repo.listApiKeys(account.id);
      return {
        data: keys
          .filter((k) => k.revoked_at === null)
          .map((k) => ({ ...keyJson(k, k.made_by), may_revoke: mayRevoke(member, k) })),
      };
    },
  );

  app.post<{ Body: { name?: string } }>(
    '/api/api-keys',
    {
      schema: {
        summary: 'Dashboard: create an API key; the key is in this answer only',
        body: createBodySchema,
        response: responses({ 201: json('Created: the key is in this answer only', ref('NewApiKey')) }, [
          ...AUTHENTICATED,
          ...STATE_CHANGING,
          ...SESSION_ONLY,
          'validation_error',
        ]),
      },
    },
    async (request, reply) => {
      const { account, member } = sessionOf(request);
      const name = (request.body?.name ?? 'default').trim();
      if (name === '' || /[\r\n\0]/.test(name)) {
        throw new AppError('validation_error', '"name" must be 1–100 characters on one line');
      }
      // An invited member's key can do what the member may, no more (docs/design.md §2).
      const maker = member.role === 'owner' ? undefined : { memberId: member.id, role: member.role };
      const created = await deps.accounts.createApiKey(account.id, name, maker);
      return reply
        .code(201)
        .header('Cache-Control', 'no-store')
        .send({ ...keyJson(created.record, maker ? member.email : null), key: created.key });
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/api-keys/:id',
    {
      schema: {
        summary: 'Dashboard: revoke an API key (at once in this process)',
        response: responses({ 204: noContent }, [
          ...AUTHENTICATED,
          ...STATE_CHANGING,
          ...SESSION_ONLY,
          'forbidden',
          'not_found',
        ]),
      },
    },
    async (request, reply) => {
      const { account, member } = sessionOf(request);
      const key = (await deps.repo.listApiKeys(account.id)).find(
        (k) => k.id === request.params.id && k.revoked_at === null,
      );
      if (key && !mayRevoke(member, key)) {
        throw new AppError(
          'forbidden',
          `the ${member.role} role revokes only the keys it made; this one was made by ${key.made_by ?? "the account's owner"}`,
        );
      }
      const revoked = await deps.repo.revokeApiKey(account.id, request.params.id, deps.clock.now());
      if (!revoked)
        throw new AppError('not_found', `no live API key with id "${request.params.id}" in this account`);
      deps.auth.invalidate();
      return reply.code(204).send();
    },
  );
}
