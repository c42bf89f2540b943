// Every role of one process over one core, none started: what the tests and the benches drive (the
// `txmail` command combines the roles it runs itself, cli.ts). The parts are in roles/ (docs/design.md §1).
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { createApiRole, type ApiRole } from './roles/api.js';
import { createCore, type Core, type CoreOptions } from './roles/core.js';
import { healthApp } from './roles/health.js';
import { createInboundRole, type InboundRole } from './roles/inbound.js';
import { createWorkerRole, type WorkerRole } from './roles/worker.js';

export interface Services extends Core, Pick<ApiRole, 'dashboardAuth' | 'deferredWork'> {
  /** Builds an app of the api role (API + dashboard); not listening yet. */
  http: ApiRole['app'];
  /** Builds the health listener's app (/healthz, /readyz, /metrics); not listening yet. */
  healthHttp(): FastifyInstance;
  /** The worker role's delivery worker and webhook dispatcher. */
  startWorker: WorkerRole['startDelivery'];
  startDomainChecker: WorkerRole['startDomainChecker'];
  startBlocklistMonitor: WorkerRole['startBlocklistMonitor'];
  /** Starts the inbound role; `port` 0 picks one. */
  startInbound: InboundRole['start'];
  /** Stops the roles in the order cli.ts does (api, inbound, worker), then the core. */
  close(): Promise<void>;
}

export async function createServices(config: Config, options: CoreOptions = {}): Promise<Services> {
  const core = await createCore(config, options);
  const api = createApiRole(core);
  const worker = createWorkerRole(core);
  const inbound = createInboundRole(core);
  return {
    ...core,
    dashboardAuth: api.dashboardAuth,
    deferredWork: api.deferredWork,
    http: api.app,
    healthHttp: () => healthApp(core),
    startWorker: worker.startDelivery,
    startDomainChecker: worker.startDomainChecker,
    startBlocklistMonitor: worker.startBlocklistMonitor,
    startInbound: inbound.start,
    async close() {
      await api.stop();
      await inbound.stop();
      await worker.stop();
      await core.close();
    },
  };
}
