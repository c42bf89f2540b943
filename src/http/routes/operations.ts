// GET /metrics (Prometheus) and GET /openapi.json (the API described from its own schemas).
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../../metrics.js';

export function registerOperationsRoutes(
  app: FastifyInstance,
  metrics: Metrics,
  openapi: () => unknown,
): void {
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => openapi());
}
