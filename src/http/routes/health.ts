// Liveness and readiness probes for process supervisors and load balancers.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { json, responses } from '../schemas/responses.js';

const status = (value: string) => ({
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: { type: 'string', enum: [value] } },
});

export function registerHealthRoutes(app: FastifyInstance, databaseReachable: () => Promise<boolean>): void {
  app.get(
    '/healthz',
    {
      schema: {
        summary: 'The process is alive',
        response: responses({ 200: json('Alive', status('ok')) }, []),
      },
    },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      schema: {
        summary: 'The database answers',
        response: responses({ 200: json('Ready', status('ready')) }, ['service_unavailable']),
      },
    },
    async () => {
      if (!(await databaseReachable()))
        throw new AppError('service_unavailable', 'the database is not reachable');
      return { status: 'ready' };
    },
  );
}
