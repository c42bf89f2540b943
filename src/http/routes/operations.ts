// GET /metrics (Prometheus) and GET /openapi.json (the API described from its own schemas).
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../metrics.js';

export function registerOperationsRoutes(
  app: FastifyInstance,
  metrics: Metrics,
  openapi: () => unknown,
): void {
  registerMetricsRoute(app, metrics);
  app.get('/openapi.json', { schema: { hide: true } }, async () => openapi());
}

export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics): void {
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(metrics.contentType);
    return metrics.exposition();
  });
}
