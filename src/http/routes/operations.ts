// GET /metrics (Prometheus) and GET /openapi.json (the API described from its own schemas).
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import type { Metrics } from '../../metrics.js';
import { metricsAccess } from '../metrics-access.js';

export function registerOperationsRoutes(
  app: FastifyInstance,
  metrics: Metrics,
  metricsToken: string | undefined,
  openapi: () => unknown,
): void {
  registerMetricsRoute(app, metrics, metricsToken);
  app.get('/openapi.json', { schema: { hide: true } }, async () => openapi());
}

/** Headers a proxy adds to a request it passes on. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip', 'via'] as const;

/** GET /metrics, for whom metrics-access.ts lets in (`token`: TXMAIL_METRICS_TOKEN). */
export function registerMetricsRoute(
  app: FastifyInstance,
  metrics: Metrics,
  token: string | undefined,
): void {
  const access = metricsAccess(token);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const verdict = access({
      peer: request.socket.remoteAddress ?? '',
      client: request.ip,
      forwarded: FORWARDING_HEADERS.some((h) => request.headers[h] !== undefined),
      authorization: request.headers.authorization,
    });
    if (!verdict.allowed) throw new AppError('metrics_forbidden', verdict.reason);
    reply.type(metrics.contentType);
    return metrics.exposition();
  });
}
