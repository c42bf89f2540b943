// The HTTP application: Fastify with txmail's error mapping, authentication and routes.
import swagger from '@fastify/swagger';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { AccountOverviews } from '../accounts/account-overview.js';
import type { Logger } from 'pino';
import type { ApiKeyAuth } from '../accounts/api-key-auth.js';
import type { Clock } from '../clock.js';
import type { TrustProxy } from '../config.js';
import type { MessagesRepo } from '../db/messages-repo.js';
import type { NoticesRepo } from '../db/notices-repo.js';
import type { Domains } from '../domains/domains.js';
import { AppError } from '../errors.js';
import type { AcceptService } from '../messages/accept.js';
import type { Suppressions } from '../suppressions/suppressions.js';
import type { WebhookEndpoints } from '../webhooks/webhook-endpoints.js';
import { authHook } from './authenticate.js';
import { limitBodyMemory } from './body-memory.js';
import {
  answerClientError,
  limitConnections,
  limitPipelining,
  requestTimeouts,
  type ConnectionLimits,
} from './connection-limits.js';
import { MAX_BODY_BYTES, PUBLIC_BODY_BYTES } from './body-limits.js';
import { registerJsonBody } from './json-body.js';
import { registerLengthPrecheck } from './length-precheck.js';
import { registerNoBodyCheck } from './no-body.js';
import { registerClosingRefusal } from './closing.js';
import { lingerBeforeClosing } from './lingering-close.js';
import { refuseNul } from './no-nul.js';
import { answerContinue } from './expect-continue.js';
import { answerProtocolEdges, refuseMissingHost } from './protocol-edges.js';
import { MAX_PARAM_LENGTH, refuseLongIds } from './id-params.js';
import { PieceCountingRequest } from './body-pieces.js';
import { hookList } from './route-hooks.js';
import { requestLogger } from './request-log.js';
import { handleError, noRoute, quotedPath, sendError } from './errors.js';
import type { RateLimitStore } from '../db/seams.js';
import { RateLimiter, type RateLimits } from './rate-limit.js';
import type { Metrics } from '../metrics.js';
import { registerAccountActivityRoute, registerAccountRoutes } from './routes/account.js';
import { registerResendRoute } from './routes/resend.js';
import { registerDomainRoutes } from './routes/domains.js';
import { registerAccountNoticeRoutes } from './routes/account-notices.js';
import { registerEmailRoutes } from './routes/emails.js';
import { registerOperationsRoutes } from './routes/operations.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerSendRoutes } from './routes/send.js';
import { registerSuppressionRoutes } from './routes/suppressions.js';
import { registerWebhookRoutes } from './routes/webhooks.js';
import type { AccountMail } from '../accounts/account-mail.js';
import type { Accounts } from '../accounts/accounts.js';
import type { DashboardAuth } from '../accounts/dashboard-auth.js';
import type { Sessions } from '../accounts/sessions.js';
import type { AccountsRepo } from '../db/accounts-repo.js';
import type { ReputationRepo } from '../db/reputation-repo.js';
import { registerApiKeyRoutes } from './routes/api-keys.js';
import { registerPublicAuthRoutes, registerSessionAuthRoutes } from './routes/auth.js';
import { registerGuidedTestRoutes } from './routes/guided-test.js';
import { withApiHeaders } from './openapi-headers.js';
import { isDashboardVisit, loadWebAssets, registerWebAssets, sendDashboardPage } from './web-assets.js';
import type { Audit } from '../audit/audit.js';
import type { Members } from '../accounts/members.js';
import type { TwoFactor } from '../accounts/two-factor.js';
import type { MembersRepo } from '../db/members-repo.js';
import { auditAction, auditHook, checkPermission, rememberTargetFacts } from './access-hooks.js';
import { targetKindOf } from '../audit/target-label.js';
import { roleCheckErrors } from './permissions.js';
import { withErrorCodes } from './schemas/responses.js';
import { registerAuditRoutes } from './routes/audit.js';
import { registerMemberRoutes } from './routes/members.js';
import { registerAcceptInviteRoute, registerSecurityRoutes } from './routes/security.js';
import { openApiWebhooks, registerSharedSchemas } from './schemas/index.js';
import { describeOnly } from './schemas/serializer.js';
import { sharedValidators } from './validators.js';

declare module 'fastify' {
  // Route documentation, kept beside the schemas it describes (the OpenAPI document reads it).
  interface FastifySchema {
    summary?: string;
  }
}

export interface HttpDeps {
  logger: Logger;
  clock: Clock;
  auth: ApiKeyAuth;
  accept: AcceptService;
  domains: Domains;
  messages: MessagesRepo;
  rateLimits: RateLimits;
  rateLimitStore: RateLimitStore;
  suppressions: Suppressions;
  webhooks: WebhookEndpoints;
  notices: NoticesRepo;
  databaseReachable: () => Promise<boolean>;
  metrics: Metrics;
  /** TXMAIL_METRICS_TOKEN: who may read /metrics (metrics-access.ts). */
  metricsToken: string | undefined;
  accountOverviews: AccountOverviews;
  publicUrl: string;
  accounts: Accounts;
  accountsRepo: AccountsRepo;
  sessions: Sessions;
  dashboardAuth: DashboardAuth;
  accountMail: AccountMail;
  /** Folder of the built dashboard (index.html + assets); undefined: not built. */
  webRoot: string | undefined;
  /** Whose X-Forwarded-For names the client (TXMAIL_TRUST_PROXY); request.ip follows it. */
  trustProxy: TrustProxy;
  /** Connections the listener holds at once, in all and per peer (connection-limits.ts). */
  connectionLimits: ConnectionLimits;
  /** The reputation counts (GET /api/account/activity). */
  reputation: ReputationRepo;
  /** Members, two-factor sign-in and the audit log (docs/design.md §2). */
  members: Members;
  membersRepo: MembersRepo;
  twoFactor: TwoFactor;
  audit: Audit;
}

/**
 * Fastify's `trustProxy` for the setting. Fastify no longer honours a bare hop count (it cannot tell
 * a proxy from a client connecting directly), so a count becomes a function trusting that many hops:
 * the operator who sets it states that only the proxies can reach the listener.
 */
export function fastifyTrustProxy(
  setting: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return setting;
}

export function buildHttpApp(deps: HttpDeps): FastifyInstance {
  const timeouts = requestTimeouts(deps.connectionLimits);
  const webAssets = loadWebAssets(deps.webRoot);
  const app = Fastify({
    // Paths without their query strings (request-log.ts): a query may hold a token.
    loggerInstance: requestLogger(deps.logger),
    // Access logs cost more than the send itself at high rates; they are on at log level debug.
    logController: new LogController({ disableRequestLogging: !deps.logger.isLevelEnabled('debug') }),
    bodyLimit: MAX_BODY_BYTES,
    // Long enough for every path to reach its route, whose own limits answer (id-params.ts).
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // A request must arrive whole in bounded time, and a malformed one is answered in txmail's error
    // form (connection-limits.ts).
    ...timeouts,
    http: {
      ...timeouts.http,
      // A body of tiny pieces is cut before it costs the event loop (body-pieces.ts).
      IncomingMessage: PieceCountingRequest,
      // Refused with a body of txmail's instead of Node's empty 400 (protocol-edges.ts).
      requireHostHeader: false,
    },
    clientErrorHandler: answerClientError,
    // Refused in txmail's own error form instead (closing.ts).
    return503OnClosing: false,
    trustProxy: fastifyTrustProxy(deps.trustProxy),
    // A malformed URL (bad percent-escape) is answered before routing: keep it in the `code: message` form,
    // except a browser's visit to a dashboard page, which the dashboard answers (web-assets.ts).
    frameworkErrors: (err, request, reply) =>
      (err.code === 'FST_ERR_BAD_URL' &&
        isDashboardVisit(request.raw.method ?? '', request.raw.url ?? '') &&
        sendDashboardPage(reply, webAssets, 404)) ||
      sendError(
        reply,
        new AppError(
          'bad_request',
          err.code === 'FST_ERR_BAD_URL'
            ? `'${quotedPath(request.raw.url ?? '')}' is not a valid url component`
            : err.message,
        ),
      ),
    // Validators shared by every app this process builds (validators.ts).
    schemaController: { compilersFactory: { buildValidator: sharedValidators } },
    ajv: {
      // Validate exactly what the client sent: no coercion, no silently dropped fields.
      customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: false },
    },
  });
  limitConnections(app.server, deps.connectionLimits);
  answerContinue(app.server, MAX_BODY_BYTES);
  answerProtocolEdges(app.server);
  limitPipelining(app);
  // An answer given before its body was read closes the connection in stages (lingering-close.ts).
  const lingering = lingerBeforeClosing(app.server);
  app.addHook('preClose', (done) => {
    lingering.stop();
    done();
  });
  limitBodyMemory(app, deps.connectionLimits.bodies, (held) => deps.metrics.httpBodyBytes.set(held));
  registerClosingRefusal(app);
  refuseMissingHost(app);
  // JSON only: anything else is 415 rather than a confusing validation error.
  app.removeContentTypeParser('text/plain');
  registerJsonBody(app);
  registerLengthPrecheck(app);
  registerNoBodyCheck(app);

  // Response schemas document the API (and the contract test checks answers against them); they never
  // drop or coerce a field of what a handler returns.
  app.setSerializerCompiler(describeOnly);
  registerSharedSchemas(app);

  app.decorateRequest('auth', null);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request) => {
    throw noRoute(request);
  });

  // The OpenAPI document is generated from the same JSON schemas that validate requests, and from the
  // response schemas of every route (schemas/).
  app.register(swagger, {
    // Shared schemas are components named by their $id.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    // Headers no route schema carries: Idempotency-Key, RateLimit-*, Retry-After, x-next-cursor.
    transformObject: (document) =>
      'openapiObject' in document ? withApiHeaders(document.openapiObject) : document.swaggerObject,
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'txmail',
        version: '1',
        description:
          'Transactional email: send, delivery log, domains, webhooks. Errors are text/plain `code: message`; each operation lists the codes it can answer (docs/API.md, Error codes).',
      },
      servers: [{ url: deps.publicUrl }],
      webhooks: openApiWebhooks(),
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: 'txmail_session',
            description:
              'The dashboard: session cookie, plus the x-csrf-token header on state-changing requests',
          },
        },
      },
    },
  });
  app.addHook('preValidation', refuseNul);
  app.addHook('preValidation', refuseLongIds);
  // A callback hook, not an async one: no promise per request on the hottest path.
  app.addHook('onResponse', (request, reply, done) => {
    deps.metrics.httpDuration.observe(
      {
        method: request.method,
        // The route pattern, never the raw URL: ids would make a series per request.
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.register(async (ops) => {
    registerHealthRoutes(ops, deps.databaseReachable);
    registerOperationsRoutes(ops, deps.metrics, deps.metricsToken, () => app.swagger());
  });

  // Cookies are marked Secure when the dashboard's public address is https.
  const secureCookies = deps.publicUrl.startsWith('https:');
  const authDeps = { auth: deps.dashboardAuth, sessions: deps.sessions, secureCookies, audit: deps.audit };
  const securityDeps = {
    members: deps.members,
    membersRepo: deps.membersRepo,
    sessions: deps.sessions,
    twoFactor: deps.twoFactor,
    audit: deps.audit,
    secureCookies,
    clock: deps.clock,
  };
  app.register(async (pub) => {
    // Anyone may send these bodies, no key asked: none needs more than a few hundred bytes (an address,
    // a password, a token), and a 10 MiB one would cost the event loop tens of milliseconds to read.
    pub.addHook('onRoute', (route) => {
      route.bodyLimit ??= PUBLIC_BODY_BYTES;
    });
    registerPublicAuthRoutes(pub, authDeps);
    registerAcceptInviteRoute(pub, securityDeps);
  });

  // Routes authenticated by API key or by the dashboard's session cookie + CSRF token. No CORS headers
  // are ever sent on them (keys stay server-side; the dashboard is same-origin).
  const limiter = new RateLimiter(deps.rateLimits, deps.rateLimitStore);
  app.register(async (api) => {
    api.addHook(
      'onRequest',
      authHook({ auth: deps.auth, sessions: deps.sessions, limiter, clock: deps.clock, secureCookies }),
    );
    // Roles (http/permissions.ts) after authentication; the audit entry of every change before its answer.
    api.addHook('onRequest', checkPermission);
    const recordAudit = auditHook(deps.audit, deps.logger);
    const rememberFacts = rememberTargetFacts(deps.audit);
    api.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      // The audit entry on the routes whose changes are audited only: the others (the send route above
      // all) skip Fastify's onSend stage altogether.
      if (methods.some((m) => auditAction(m, route.url) !== undefined)) {
        route.onSend = [...hookList(route.onSend), recordAudit];
        // A target named by `:id` may be gone after the change: its name is read before.
        if (route.url.includes(':id') && targetKindOf(route.url) !== undefined) {
          route.preHandler = [...hookList(route.preHandler), rememberFacts];
        }
      }
      const response = route.schema?.response as Record<string, object> | undefined;
      route.schema = {
        ...route.schema,
        security: [{ apiKey: [] }, { session: [] }],
        // What the role check above can answer on this route (http/permissions.ts).
        ...(response ? { response: withErrorCodes(response, roleCheckErrors(methods[0]!, route.url)) } : {}),
      };
    });
    registerSendRoutes(api, deps.accept);
    registerResendRoute(api, { accept: deps.accept, messages: deps.messages });
    registerEmailRoutes(api, deps.messages, deps.clock);
    registerAccountRoutes(api, deps.accountOverviews);
    registerDomainRoutes(api, deps.domains);
    registerSuppressionRoutes(api, deps.suppressions);
    registerWebhookRoutes(api, deps.webhooks);
    registerAccountNoticeRoutes(api, deps.notices);
    registerSessionAuthRoutes(api, authDeps);
    registerApiKeyRoutes(api, {
      accounts: deps.accounts,
      repo: deps.accountsRepo,
      auth: deps.auth,
      clock: deps.clock,
    });
    registerGuidedTestRoutes(api, { mail: deps.accountMail, messages: deps.messages, clock: deps.clock });
    registerAccountActivityRoute(api, { reputation: deps.reputation, clock: deps.clock });
    registerMemberRoutes(api, { members: deps.members, sessions: deps.sessions });
    registerSecurityRoutes(api, securityDeps);
    registerAuditRoutes(api, deps.audit);
  });

  // The dashboard: everything else that is a GET.
  app.register(async (web) => registerWebAssets(web, webAssets));
  return app;
}
