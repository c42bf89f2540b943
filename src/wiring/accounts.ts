// The dashboard's sign-in side of the api role (roles/api.ts): sessions, sign-up and log-in, remembered
// browsers, and the mail those send (verification and reset links); members with their invitations,
// two-factor sign-in and the audit log (docs/design.md §2). API-key authentication and the
// accounts themselves are the core's (roles/core.ts): other roles change what they answer.
import type { Logger } from 'pino';
import { QueuedAccountMail } from '../accounts/account-mail.js';
import { AttemptLimiter } from '../accounts/attempt-limiter.js';
import type { ApiKeyAuth } from '../accounts/api-key-auth.js';
import { DashboardAuth } from '../accounts/dashboard-auth.js';
import { LoginDevices } from '../accounts/login-devices.js';
import { Sessions } from '../accounts/sessions.js';
import { INVITES_PER_ACCOUNT_PER_DAY, Members } from '../accounts/members.js';
import { TwoFactor } from '../accounts/two-factor.js';
import { Audit } from '../audit/audit.js';
import { SecretBox } from '../crypto/secret-box.js';
import {
  MAILS_PER_ADDRESS_PER_HOUR,
  Signup,
  SIGNUPS_PER_IP_PER_HOUR,
  type MailRequestLimits,
} from '../accounts/signup.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { deriveKey } from '../crypto/derive-key.js';
import { DeferredWork } from '../deferred-work.js';
import type { SystemMail } from '../messages/system-mail.js';
import type { Repos } from './repos.js';
import type { PasswordHasher } from '../accounts/passwords.js';

export interface AccountServices {
  sessions: Sessions;
  dashboardAuth: DashboardAuth;
  accountMail: QueuedAccountMail;
  /** What the sign-in pages do after answering (reset mail); waited for on close. */
  deferredWork: DeferredWork;
  members: Members;
  twoFactor: TwoFactor;
  audit: Audit;
}

export function createAccountServices(
  config: Config,
  deps: {
    repos: Repos;
    secretKey: string;
    systemMail: SystemMail;
    clock: Clock;
    logger: Logger;
    auth: ApiKeyAuth;
    passwords: PasswordHasher;
  },
): AccountServices {
  const { repos, clock, logger } = deps;
  const sessions = new Sessions(
    repos.sessions,
    repos.accounts,
    deriveKey(deps.secretKey, 'session'),
    clock,
    repos.members,
  );
  const accountMail = new QueuedAccountMail(deps.systemMail);
  const deferredWork = new DeferredWork((err) =>
    logger.error({ err }, 'sign-in work after the answer failed'),
  );
  // Built once and handed to sign-up and to the reset and verification requests: one count each.
  const limits: MailRequestLimits = {
    perClient: new AttemptLimiter(repos.attemptCounts, 'ip', SIGNUPS_PER_IP_PER_HOUR, 3600_000),
    perAddress: new AttemptLimiter(repos.attemptCounts, 'mail', MAILS_PER_ADDRESS_PER_HOUR, 3600_000),
  };
  const signup = new Signup(
    { signup: config.signup, publicUrl: config.publicUrl },
    {
      accountsRepo: repos.accounts,
      signupsRepo: repos.signups,
      sessionsRepo: repos.sessions,
      sessions,
      mail: accountMail,
      limits,
      clock,
      passwords: deps.passwords,
      members: repos.members,
    },
  );
  const members = new Members(
    { publicUrl: config.publicUrl, operatorEmail: config.operatorEmail },
    {
      repo: repos.members,
      accounts: repos.accounts,
      mail: accountMail,
      clock,
      passwords: deps.passwords,
      keysChanged: () => deps.auth.invalidate(),
      limits: {
        perAccount: new AttemptLimiter(
          repos.attemptCounts,
          'invite',
          INVITES_PER_ACCOUNT_PER_DAY,
          86_400_000,
        ),
        perAddress: limits.perAddress,
      },
    },
  );
  const twoFactor = new TwoFactor({
    members: repos.members,
    box: new SecretBox(deriveKey(deps.secretKey, 'totp-secret-encryption')),
    attempts: repos.attemptCounts,
    clock,
    sessions,
  });
  const audit = new Audit(repos.audit, clock);
  const dashboardAuth = new DashboardAuth(
    { publicUrl: config.publicUrl },
    {
      accountsRepo: repos.accounts,
      signupsRepo: repos.signups,
      sessionsRepo: repos.sessions,
      sessions,
      signup,
      devices: new LoginDevices(repos.loginDevices),
      mail: accountMail,
      limits,
      attempts: repos.attemptCounts,
      deferred: deferredWork,
      clock,
      passwords: deps.passwords,
      members: repos.members,
      twoFactor,
    },
  );
  return { sessions, dashboardAuth, accountMail, deferredWork, members, twoFactor, audit };
}
