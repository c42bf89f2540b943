// The two hooks every authenticated /api route passes (docs/design.md §2): the role check of a dashboard
// session, or of a key an invited member made, against http/permissions.ts (and, when the account requires two-factor sign-in, the
// enrolment gate), and the audit entry of every successful change (audit/audit.ts). Neither needs
// anything from the route definitions: the table names routes by method and pattern.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Audit, AuditActor } from '../audit/audit.js';
import type { AuditTargetFacts } from '../db/audit-repo.js';
import { factsOfAnswer, keyLabel, targetKindOf, targetLabel } from '../audit/target-label.js';
import { AppError } from '../errors.js';
import { allows, ENROLMENT_ROUTES, PUBLIC, ROUTE_RULES, ruleFor } from './permissions.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * onRequest, after authentication: a session's member must hold the route's permission. A callback
 * hook, like the metrics hook: no promise per request on the send path.
 */
export function checkPermission(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  const auth = request.auth;
  if (!auth) return done();
  const rule = () => ruleFor(request.method, request.routeOptions.url);
  const session = auth.session;
  if (!session) {
    // A key made by an invited member can do what its maker may; any other key keeps the rights API
    // keys always had (docs/design.md §2).
    const role = auth.apiKeyRole;
    if (role !== null && !allows(role, rule().permission)) {
      return done(
        new AppError(
          'forbidden',
          `this API key is bounded by its maker's role (${role}), which cannot do this (needs ${rule().permission})`,
        ),
      );
    }
    return done();
  }
  const { member, account } = session;
  const route = `${request.method} ${request.routeOptions.url ?? ''}`;
  if (account.require_totp_at !== null && member.totp_enabled_at === null && !ENROLMENT_ROUTES.has(route)) {
    return done(
      new AppError(
        'totp_enrolment_required',
        'this account requires two-factor sign-in: set it up under Security before anything else',
      ),
    );
  }
  const permission = rule().permission;
  if (!allows(member.role, permission)) {
    return done(new AppError('forbidden', `the ${member.role} role cannot do this (needs ${permission})`));
  }
  done();
}

/**
 * The audit action of a request: the table's, or for a change the table does not know yet, its route.
 * `status`: the answer's, for a rule audited only at one status (undefined: whether it may be audited
 * at all).
 */
export function auditAction(
  method: string,
  pattern: string | undefined,
  status?: number,
): string | undefined {
  const entry = pattern === undefined ? undefined : ROUTE_RULES[`${method} ${pattern}`];
  if (entry === PUBLIC) return undefined;
  if (entry !== undefined) {
    if (status !== undefined && entry.auditOnly !== undefined && status !== entry.auditOnly) return undefined;
    return entry.audit;
  }
  // A route without an entry still leaves a trace of every change it makes.
  return READS.has(method) ? undefined : `${method} ${pattern ?? 'unknown'}`;
}

/** What a change was made to: the route's id parameters, else the id (or address) it answered. */
function targetOf(request: FastifyRequest, answer: Record<string, unknown> | undefined): string | null {
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  if (params.id !== undefined) return params.sid !== undefined ? `${params.id}/${params.sid}` : params.id;
  if (params.address !== undefined) return params.address;
  if (answer === undefined) return null;
  // A suppression's address before its id: the API names suppressions by address (DELETE
  // /api/suppressions/:address), and so does the operator's `txmail suppressions add`.
  for (const k of ['address', 'id', 'email', 'domain']) if (typeof answer[k] === 'string') return answer[k];
  return null;
}

/** The answer's JSON object, if it is one. */
function answerOf(payload: unknown): Record<string, unknown> | undefined {
  if (typeof payload !== 'string' || !payload.startsWith('{')) return undefined;
  try {
    return JSON.parse(payload) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** What the audited change's target was before the change (rememberTargetFacts). */
    auditTargetBefore?: AuditTargetFacts;
    /**
     * Set by a route whose change names no id (the account's security settings): the state it set, the
     * entry's target in place of one.
     */
    auditTarget?: string;
    /** Set by a route whose request changed nothing (a setting set to what it was): no entry. */
    auditUnchanged?: true;
  }
}

/**
 * What the target a route names by its `:id` is called, read before the change (which may delete it),
 * for the audit entry (audit/target-label.ts). Only on the audited routes that name such a target.
 */
export function rememberTargetFacts(audit: Audit) {
  return async function rememberFacts(request: FastifyRequest): Promise<void> {
    const id = (request.params as Record<string, string | undefined> | undefined)?.id;
    const kind = targetKindOf(request.routeOptions.url);
    if (id === undefined || kind === undefined || !request.auth) return;
    request.auditTargetBefore = await audit.factsOf(request.auth.account.id, kind, id);
  };
}

/**
 * The label an entry keeps for its target: what the answer calls a created or changed target (a new
 * name included, and a member's role before it when the change moved it), else what the target was
 * called before the change.
 */
function targetLabelOf(
  request: FastifyRequest,
  target: string | null,
  answer: Record<string, unknown> | undefined,
): string | null {
  const kind = targetKindOf(request.routeOptions.url);
  if (kind === undefined || target === null) return null;
  const before = request.auditTargetBefore;
  const named =
    answer && answer.id === target.split('/')[0]
      ? targetLabel(kind, factsOfAnswer(answer), before)
      : undefined;
  return named ?? (before && targetLabel(kind, before)) ?? null;
}

function actorOf(request: FastifyRequest): AuditActor | undefined {
  const auth = request.auth;
  if (!auth) return undefined;
  if (auth.session) return { type: 'member', id: auth.session.member.id, email: auth.session.member.email };
  return auth.apiKeyId === null
    ? undefined
    : {
        type: 'api_key',
        id: auth.apiKeyId,
        label: auth.apiKeyNames ? keyLabel(auth.apiKeyNames) : auth.apiKeyId,
      };
}

/**
 * onSend: records a successful audited request before its answer leaves, so a client that saw the
 * answer finds the entry. A failed write is logged; the change itself is already made.
 */
export function auditHook(audit: Audit, logger: Logger) {
  return function recordAudit(
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (err: Error | null, payload?: unknown) => void,
  ): void {
    const action =
      reply.statusCode < 300
        ? auditAction(request.method, request.routeOptions.url, reply.statusCode)
        : undefined;
    const actor = action === undefined || request.auditUnchanged ? undefined : actorOf(request);
    if (action === undefined || actor === undefined) return done(null, payload);
    const answer = answerOf(payload);
    const target = request.auditTarget ?? targetOf(request, answer);
    audit
      .record({
        accountId: request.auth!.account.id,
        actor,
        action,
        target,
        targetLabel: targetLabelOf(request, target, answer),
        ip: request.ip,
      })
      .catch((err: unknown) => logger.error({ err, action }, 'could not write the audit entry'))
      .finally(() => done(null, payload));
  };
}
