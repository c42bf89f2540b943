// The small HTTP listener of a role without the API (`txmail inbound` with TXMAIL_INBOUND_HEALTH_PORT,
// `txmail worker` with TXMAIL_WORKER_HEALTH_PORT):
// the same /healthz, /readyz and /metrics as the API's listener, and nothing else.
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Metrics } from '../metrics.js';
import { registerClosingRefusal } from './closing.js';
import { requestLogger } from './request-log.js';
import { limitPipelining } from './connection-limits.js';
import { handleError, noRoute } from './errors.js';
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
  // As the API's listener: pipelined requests bounded, every answer marked nosniff (its 404 echoes the
  // path in text/plain).
  limitPipelining(app);
  app.setSerializerCompiler(describeOnly);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request) => {
    throw noRoute(request);
  });
  registerHealthRoutes(app, deps.databaseReachable);
  registerMetricsRoute(app, deps.metrics, deps.metricsToken);
  return app;
}
