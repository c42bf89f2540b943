// The HTTP listeners, built when a role asks: the API with the dashboard, and the inbound role's health
// listener. Not listening yet: the role decides when.
import type { FastifyInstance } from 'fastify';
import { AccountOverviews } from '../accounts/account-overview.js';
import type { Config } from '../config.js';
import { isReachable, type Db } from '../db/database.js';
import { dialectSeams } from '../db/dialect.js';
import { buildHttpApp, type HttpDeps } from '../http/app.js';
import { buildHealthApp } from '../http/health-app.js';
import { defaultWebRoot } from '../http/web-assets.js';
import type { Repos } from './repos.js';

export interface HttpApps {
  http(): FastifyInstance;
  healthHttp(): FastifyInstance;
}

export type HttpAppsDeps = Pick<
  HttpDeps,
  | 'logger'
  | 'clock'
  | 'metrics'
  | 'auth'
  | 'accept'
  | 'domains'
  | 'suppressions'
  | 'webhooks'
  | 'accounts'
  | 'sessions'
  | 'dashboardAuth'
  | 'accountMail'
> & { db: Db; repos: Repos };

export function createHttpApps(config: Config, deps: HttpAppsDeps): HttpApps {
  const { db, repos, logger, clock, metrics } = deps;
  // Shared by API processes on PostgreSQL; SQLite runs one process, whose memory is enough.
  const rateLimitStore = dialectSeams(db).rateLimitStore();
  return {
    http: () =>
      buildHttpApp({
        logger,
        clock,
        auth: deps.auth,
        accept: deps.accept,
        domains: deps.domains,
        messages: repos.messages,
        rateLimits: { perKey: config.rateLimit, perAccount: config.accountRateLimits },
        rateLimitStore,
        suppressions: deps.suppressions,
        webhooks: deps.webhooks,
        notices: repos.notices,
        databaseReachable: () => isReachable(db),
        metrics,
        accountOverviews: new AccountOverviews(
          repos.accounts,
          {
            domains: (id) => repos.domains.count(id),
            webhooks: async (id) => (await repos.webhooks.list(id)).length,
          },
          clock,
          { counts: repos.reputation, thresholds: config.reputation },
        ),
        publicUrl: config.publicUrl,
        accounts: deps.accounts,
        accountsRepo: repos.accounts,
        sessions: deps.sessions,
        dashboardAuth: deps.dashboardAuth,
        accountMail: deps.accountMail,
        webRoot: defaultWebRoot(),
        trustProxy: config.trustProxy,
        reputation: repos.reputation,
      }),
    healthHttp: () => buildHealthApp({ logger, databaseReachable: () => isReachable(db), metrics }),
  };
}
