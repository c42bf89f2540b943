// Liveness and readiness probes for process supervisors and load balancers.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';

export function registerHealthRoutes(app: FastifyInstance, databaseReachable: () => Promise<boolean>): void {
  app.get('/healthz', { schema: { summary: 'The process is alive' } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { summary: 'The database answers' } }, async () => {
    if (!(await databaseReachable()))
      throw new AppError('service_unavailable', 'the database is not reachable');
    return { status: 'ready' };
  });
}
