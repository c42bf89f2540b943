// Accounts and who may act for them: API-key authentication, dashboard sessions, sign-up and log-in,
// and the mail those send (verification and reset links).
import type { Logger } from 'pino';
import { QueuedAccountMail } from '../accounts/account-mail.js';
import { Accounts } from '../accounts/accounts.js';
import { ApiKeyAuth } from '../accounts/api-key-auth.js';
import { DashboardAuth } from '../accounts/dashboard-auth.js';
import { Sessions } from '../accounts/sessions.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { deriveKey } from '../crypto/derive-key.js';
import type { SystemMail } from '../messages/system-mail.js';
import type { Repos } from './repos.js';

export interface AccountServices {
  auth: ApiKeyAuth;
  accounts: Accounts;
  sessions: Sessions;
  dashboardAuth: DashboardAuth;
  accountMail: QueuedAccountMail;
}

export function createAccountServices(
  config: Config,
  deps: { repos: Repos; secretKey: string; systemMail: SystemMail; clock: Clock; logger: Logger },
): AccountServices {
  const { repos, clock, logger } = deps;
  const auth = new ApiKeyAuth(repos.accounts, clock, (err) =>
    logger.warn({ err }, 'could not record key use'),
  );
  const accounts = new Accounts(repos.accounts, clock);
  const sessions = new Sessions(repos.sessions, repos.accounts, deriveKey(deps.secretKey, 'session'), clock);
  const accountMail = new QueuedAccountMail(deps.systemMail);
  const dashboardAuth = new DashboardAuth(
    { signup: config.signup, publicUrl: config.publicUrl },
    {
      accountsRepo: repos.accounts,
      signupsRepo: repos.signups,
      sessionsRepo: repos.sessions,
      sessions,
      mail: accountMail,
      attempts: repos.attemptCounts,
      clock,
    },
  );
  return { auth, accounts, sessions, dashboardAuth, accountMail };
}
