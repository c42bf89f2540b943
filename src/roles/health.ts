// The health listener of a role without the API (`txmail inbound` with TXMAIL_INBOUND_HEALTH_PORT,
// `txmail worker` with TXMAIL_WORKER_HEALTH_PORT): /healthz, /readyz and /metrics on its own port.
import type { FastifyInstance } from 'fastify';
import { isReachable } from '../db/database.js';
import { buildHealthApp } from '../http/health-app.js';
import type { Core, Role } from './core.js';

export interface HealthRole extends Role {
  /** Listens on TXMAIL_HTTP_HOST and the port given; resolves to the address. */
  start(): Promise<string>;
}

/** Builds the health listener's app, not listening yet. */
export function healthApp(core: Core): FastifyInstance {
  return buildHealthApp({
    logger: core.logger,
    databaseReachable: () => isReachable(core.db),
    metrics: core.metrics,
    metricsToken: core.config.metricsToken,
  });
}

export function createHealthRole(core: Core, port: number): HealthRole {
  const app = healthApp(core);
  return {
    start: () => app.listen({ host: core.config.httpHost, port }),
    stop: () => app.close(),
  };
}
