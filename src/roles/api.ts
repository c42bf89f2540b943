// The api role (`txmail api`, part of `txmail serve`): the HTTP API with the dashboard, and the
// dashboard's sign-in side (sessions, sign-up, log-in, reset and their mail). Everything else it serves
// with is the core's.
import { trustedProxies } from '../http/connection-limits.js';
import type { FastifyInstance } from 'fastify';
import { AccountOverviews } from '../accounts/account-overview.js';
import type { DashboardAuth } from '../accounts/dashboard-auth.js';
import type { DeferredWork } from '../deferred-work.js';
import { isReachable } from '../db/database.js';
import { dialectSeams } from '../db/dialect.js';
import { buildHttpApp } from '../http/app.js';
import { defaultWebRoot } from '../http/web-assets.js';
import { createAccountServices } from '../wiring/accounts.js';
import type { Core, Role } from './core.js';
import { simulatorDomain } from '../simulator/simulator-addresses.js';

export interface ApiRole extends Role {
  dashboardAuth: DashboardAuth;
  /** What the sign-in pages do after answering (a reset request's mail); stop() waits for it. */
  deferredWork: DeferredWork;
  /** Builds an app (API + dashboard), not listening: the one start() listens with, or a test's. */
  app(): FastifyInstance;
  /** Listens on TXMAIL_HTTP_HOST:TXMAIL_HTTP_PORT; resolves to the address. */
  start(): Promise<string>;
  /** Finishes the requests in flight, then what they left to do after answering. */
  stop(): Promise<void>;
}

export function createApiRole(core: Core): ApiRole {
  const { config, db, repos, clock } = core;
  const { sessions, dashboardAuth, accountMail, deferredWork, members, twoFactor, audit } =
    createAccountServices(config, core);
  // Shared by API processes on PostgreSQL; SQLite runs one process, whose memory is enough.
  const rateLimitStore = dialectSeams(db).rateLimitStore();
  const app = (): FastifyInstance =>
    buildHttpApp({
      logger: core.logger,
      clock,
      auth: core.auth,
      accept: core.accept,
      domains: core.domains,
      messages: repos.messages,
      rateLimits: { perKey: config.rateLimit, perAccount: config.accountRateLimits },
      rateLimitStore,
      suppressions: core.suppressions,
      webhooks: core.webhooks,
      notices: repos.notices,
      databaseReachable: () => isReachable(db),
      metrics: core.metrics,
      metricsToken: config.metricsToken,
      accountOverviews: new AccountOverviews(
        repos.accounts,
        {
          domains: (id) => repos.domains.count(id),
          webhooks: async (id) => (await repos.webhooks.list(id)).length,
        },
        clock,
        { counts: repos.reputation, thresholds: config.reputation },
        simulatorDomain(config.testDomain),
      ),
      publicUrl: config.publicUrl,
      accounts: core.accounts,
      accountsRepo: repos.accounts,
      sessions,
      dashboardAuth,
      accountMail,
      webRoot: defaultWebRoot(),
      trustProxy: config.trustProxy,
      connectionLimits: {
        requestTimeoutMs: config.httpRequestTimeoutMs,
        total: config.httpMaxConnections,
        perPeer: config.httpMaxConnectionsPerIp,
        exempt: trustedProxies(config.trustProxy),
        bodies: { total: config.httpBodyMemory, perPeer: config.httpBodyMemoryPerIp },
      },
      reputation: repos.reputation,
      members,
      membersRepo: repos.members,
      twoFactor,
      audit,
    });
  let listening: FastifyInstance | undefined;
  return {
    dashboardAuth,
    deferredWork,
    app,
    async start() {
      listening ??= app();
      return listening.listen({ host: config.httpHost, port: config.httpPort });
    },
    async stop() {
      await listening?.close(); // finishes requests in flight
      // A reset request answered already may still be queueing its mail through the accept writer.
      await deferredWork.settled();
    },
  };
}
