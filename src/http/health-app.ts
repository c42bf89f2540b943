// The small HTTP listener of a role without the API (`txmail inbound` with TXMAIL_INBOUND_HEALTH_PORT,
// `txmail worker` with TXMAIL_WORKER_HEALTH_PORT):
// the same /healthz, /readyz and /metrics as the API's listener, and nothing else.
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { AppError } from '../errors.js';
import type { Metrics } from '../metrics.js';
import { registerClosingRefusal } from './closing.js';
import { requestLogger } from './request-log.js';
import { handleError } from './errors.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerMetricsRoute } from './routes/operations.js';
import { describeOnly } from './schemas/serializer.js';

export interface HealthAppDeps {
  logger: Logger;
  databaseReachable: () => Promise<boolean>;
  metrics: Metrics;
  /** TXMAIL_METRICS_TOKEN: who may read /metrics (metrics-access.ts). */
  metricsToken: string | undefined;
}

export function buildHealthApp(deps: HealthAppDeps): FastifyInstance {
  const app = Fastify({
    // Paths without their query strings (request-log.ts): a query may hold a token.
    loggerInstance: requestLogger(deps.logger),
    logController: new LogController({ disableRequestLogging: !deps.logger.isLevelEnabled('debug') }),
    // Refused in txmail's own error form instead (closing.ts).
    return503OnClosing: false,
  });
  registerClosingRefusal(app);
  // Its 404 echoes the path in text/plain, as the API's does.
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.header('x-content-type-options', 'nosniff');
    done();
  });
  app.setSerializerCompiler(describeOnly);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request) => {
    throw new AppError('not_found', `no route ${request.method} ${request.url.split('?')[0]}`);
  });
  registerHealthRoutes(app, deps.databaseReachable);
  registerMetricsRoute(app, deps.metrics, deps.metricsToken);
  return app;
}
