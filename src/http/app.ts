// The HTTP application: Fastify with txmail's error mapping, authentication and routes.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { ApiKeyAuth } from '../accounts/api-key-auth.js';
import type { Clock } from '../clock.js';
import type { MessagesRepo } from '../db/messages-repo.js';
import type { NoticesRepo } from '../db/notices-repo.js';
import { AppError } from '../errors.js';
import type { AcceptService } from '../messages/accept.js';
import type { WebhookEndpoints } from '../webhooks/webhook-endpoints.js';
import { apiKeyHook } from './authenticate.js';
import { handleError } from './errors.js';
import { RateLimiter } from './rate-limit.js';
import { registerAccountRoutes } from './routes/account.js';
import { registerEmailRoutes } from './routes/emails.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerSendRoutes } from './routes/send.js';
import { registerWebhookRoutes } from './routes/webhooks.js';

declare module 'fastify' {
  // Route documentation, kept beside the schemas it describes (the OpenAPI document reads it).
  interface FastifySchema {
    summary?: string;
  }
}

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface HttpDeps {
  logger: Logger;
  clock: Clock;
  auth: ApiKeyAuth;
  accept: AcceptService;
  messages: MessagesRepo;
  webhooks: WebhookEndpoints;
  notices: NoticesRepo;
  rateLimit: number;
  databaseReachable: () => Promise<boolean>;
}

export function buildHttpApp(deps: HttpDeps): FastifyInstance {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // Access logs cost more than the send itself at high rates; they are on at log level debug.
    logController: new LogController({ disableRequestLogging: !deps.logger.isLevelEnabled('debug') }),
    bodyLimit: MAX_BODY_BYTES,
    return503OnClosing: true,
    ajv: {
      // Validate exactly what the client sent: no coercion, no silently dropped fields.
      customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: false },
    },
  });
  // JSON only: anything else is 415 rather than a confusing validation error.
  app.removeContentTypeParser('text/plain');

  app.decorateRequest('auth', null);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request) => {
    throw new AppError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`);
  });

  registerHealthRoutes(app, deps.databaseReachable);

  // Routes authenticated by API key. No CORS headers are ever sent on them (keys stay server-side).
  const limiter = new RateLimiter(deps.rateLimit);
  app.register(async (api) => {
    api.addHook('onRequest', apiKeyHook(deps.auth, limiter, deps.clock));
    registerSendRoutes(api, deps.accept);
    registerEmailRoutes(api, deps.messages);
    registerWebhookRoutes(api, deps.webhooks);
    registerAccountRoutes(api, deps.notices);
  });
  return app;
}
